import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Empty, ErrorState, Loading } from '../../components/States';
import { tabId } from '../../components/Tabs';
import { useSettings } from '../../store/settings';
import { snippetFileName } from './file-name';
import { Deeplinks, TokenConfirm } from './TokenConfirm';
import { copyText, Countdown, useToast } from './workbench-helpers';
import type { SnippetWorkbenchProps } from './types';
import { usePanePicks } from './usePanePicks';
import { useSnippetOptions } from './useSnippetOptions';
import { useSnippets } from '../../hooks/snippets';
import { RepoAppSetups } from './AppSetups';
import './snippets.css';

// Monaco is a separate chunk: it loads only when a snippet pane opens.
import {
  KindTabs,
  kindLabels,
  languageLabels,
  PANE_ID,
  paneLabelledBy,
  PaneToolbar,
  SnippetNotes,
  SnippetPickers,
  type WorkbenchKind,
} from './PaneParts';

const MonacoPane = lazy(() => import('./MonacoPane'));

function runsLocally(m: { library_name?: string; tags: string[] }): boolean {
  return isGguf(m) || m.library_name === 'mlx' || m.tags.includes('mlx');
}

/** A GGUF repo: its files run in the built-in engine, so other apps can use them through HubDesk's local server. */
function isGguf(m: { library_name?: string; tags: string[] }): boolean {
  return m.library_name === 'gguf' || m.tags.includes('gguf');
}

/** "Use this model": every usage snippet for the model, in editable panes to copy or save into a project. */
export default function Workbench({ model: modelProp, quant }: SnippetWorkbenchProps) {
  // The page may rebuild the record on every render: regenerate only when its content changes.
  const modelKey = JSON.stringify(modelProp);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const model = useMemo(() => modelProp, [modelKey]);
  // GGUF and MLX repos run locally: their "Use this model" opens on Local apps.
  const [kind, setKind] = useState<WorkbenchKind>(() => (runsLocally(model) ? 'local-app' : 'inference'));
  const [kindFor, setKindFor] = useState(model.id);
  if (kindFor !== model.id) {
    setKindFor(model.id);
    setKind(runsLocally(model) ? 'local-app' : 'inference');
  }
  const tokenSet = useSettings((s) => !!s.view?.secrets.find((x) => x.name === 'hfToken')?.set);
  /** The user's edits per pane, with the generated text they were made on (a new generation shows the new text). */
  const [edits, setEdits] = useState<Record<string, { base: string; text: string }>>({});
  const [confirmToken, setConfirmToken] = useState(false);
  const [resets, setResets] = useState(0);
  const [toast, showToast] = useToast();
  const opt = useSnippetOptions(model);
  const { options } = opt;
  const clearEdits = useCallback(() => setEdits({}), []);
  const { result, error, loading, load, overlay, setOverlay, busy, insertMyToken, insertFalToken, save } = useSnippets(
    model,
    quant,
    options,
    showToast,
    clearEdits,
  );

  const section = result?.sections.find((s) => s.kind === kind);
  const snippets = kind === 'inference' && overlay ? overlay.snippets : (section?.snippets ?? []);
  const { languages, lang, clients, cli, variants, idx, current, ...pick } = usePanePicks(kind, snippets, model.id);
  const key = current ? `${kind}|${current.language}|${current.client}|${idx}` : '';
  const edit = current && edits[key]?.base === current.content ? edits[key].text : undefined;
  const content = current ? (edit ?? current.content) : '';
  const edited = current ? edit !== undefined && edit !== current.content : false;
  const falEntry = model.inferenceProviderMapping?.find((e) => e.provider === 'fal-ai');

  const expire = useCallback(() => {
    setOverlay(undefined);
    setEdits({});
    showToast('The temporary token expired: back to the placeholder');
  }, [showToast, setOverlay]);

  const copy = async (text: string, what: string) => {
    try {
      await copyText(text);
      showToast(`${what} copied to the clipboard`);
    } catch {
      showToast('The clipboard is not available here: select the text and copy it');
    }
  };

  const savePane = () => current && void save(snippetFileName(model.id, current.language, current.client), content);

  return (
    <section className="card snippet-workbench" data-testid="snippet-workbench" aria-label="Use this model">
      <KindTabs kind={kind} result={result} withApps={isGguf(model)} onPick={setKind} />
      <div id="sw-kind-panel" role="tabpanel" aria-labelledby={tabId('sw-kind', kind)}>
        {(kind === 'inference' || kind === 'local-server') && (
          <div className="sw-options" aria-label="Snippet options">
            {kind === 'inference' && (
              <label className="sw-opt">
                <span>Provider</span>
                <select
                  value={opt.provider}
                  onChange={(e) => opt.setProvider(e.target.value)}
                  data-testid="opt-provider"
                  aria-label="Provider"
                >
                  {(result?.providers ?? [{ id: opt.provider }]).map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.id}
                      {p.status ? ` (${p.status})` : ''}
                    </option>
                  ))}
                  {result && !result.providers.some((p) => p.id === opt.provider) && (
                    <option value={opt.provider}>{opt.provider}</option>
                  )}
                </select>
              </label>
            )}
            <label className="sw-check">
              <input
                type="checkbox"
                checked={opt.streaming}
                onChange={(e) => opt.setStreaming(e.target.checked)}
                data-testid="opt-stream"
              />
              Streaming
            </label>
            {kind === 'inference' && (
              <>
                <label className="sw-check" title="Call the provider's own API with its key, not the HF router">
                  <input type="checkbox" checked={opt.direct} onChange={(e) => opt.setDirect(e.target.checked)} />
                  Direct to provider
                </label>
                <label className="sw-opt">
                  <span>Bill to</span>
                  <input
                    value={opt.billTo}
                    onChange={(e) => opt.setBillTo(e.target.value)}
                    placeholder="organisation"
                    size={12}
                    aria-label="Bill to organisation"
                  />
                </label>
                <label className="sw-opt">
                  <span>Endpoint</span>
                  <input
                    value={opt.endpointUrl}
                    onChange={(e) => opt.setEndpointUrl(e.target.value)}
                    placeholder="https://…"
                    size={18}
                    aria-label="Custom endpoint URL"
                    aria-invalid={opt.endpointInvalid}
                  />
                </label>
                <label className="sw-opt sw-grow">
                  <span>{opt.isChat ? 'Message' : 'Input'}</span>
                  <input
                    value={opt.inputs}
                    onChange={(e) => opt.setInputs(e.target.value)}
                    placeholder={
                      opt.isChat ? 'What is the capital of France?' : (result?.sampleInput ?? 'custom sample input')
                    }
                    aria-label={opt.isChat ? 'Custom user message' : 'Custom sample input'}
                    data-testid="opt-inputs"
                  />
                </label>
              </>
            )}
          </div>
        )}

        {kind === 'inference' && section?.warning && (
          <div className="sw-warning sw-unserved" role="note" data-testid="unserved-note">
            <strong>Will not run as it is:</strong> {section.warning}
          </div>
        )}
        {kind === 'other-apps' ? (
          <div className="sw-body">
            <RepoAppSetups repo={model.id} quant={quant} />
          </div>
        ) : error ? (
          <ErrorState error={error} title="Could not generate snippets" onRetry={() => void load()} />
        ) : !result ? (
          <Loading label="Generating snippets…" />
        ) : section?.error ? (
          <ErrorState error={{ code: 'upstream', message: section.error }} title="The snippet library failed" />
        ) : snippets.length === 0 ? (
          <>
            <Empty title={`No ${kindLabels[kind].toLowerCase()} snippets`}>
              <span data-testid="snippet-notice">{section?.notice ?? 'Nothing to show for this model.'}</span>
            </Empty>
            {kind === 'local-app' && <Deeplinks result={result} />}
          </>
        ) : (
          <div className={`sw-body${loading ? ' sw-stale' : ''}`} aria-busy={loading}>
            <SnippetPickers
              languages={languages}
              language={lang}
              clients={clients}
              client={cli}
              variants={variants}
              variant={idx}
              onLanguage={pick.pickLanguage}
              onClient={pick.pickClient}
              onVariant={pick.pickVariant}
            />
            {current && <SnippetNotes snippet={current} onCopy={(text) => void copy(text, 'Install command')} />}

            {overlay && kind === 'inference' && (
              <div className="sw-warning" role="note">
                {overlay.source === 'hf'
                  ? 'Your real Hugging Face token is written in these snippets. Do not commit or share them.'
                  : 'A temporary fal token is written in these snippets.'}
                {overlay.expiresAt && <Countdown until={overlay.expiresAt} onExpire={expire} />}
              </div>
            )}

            <div className="sw-pane" id={PANE_ID} role="tabpanel" aria-labelledby={paneLabelledBy(lang, cli)}>
              <PaneToolbar
                title={
                  current?.title ??
                  `${languageLabels[current?.language ?? ''] ?? current?.language} · ${current?.client}`
                }
                edited={edited}
                canReset={edited || !!overlay}
                busy={busy}
                onCopy={() => void copy(content, 'Snippet')}
                onReset={() => {
                  setEdits((e) => {
                    const next = { ...e };
                    delete next[key];
                    return next;
                  });
                  if (overlay && !edited) setOverlay(undefined);
                  setResets((n) => n + 1);
                }}
                onSave={savePane}
                onMyToken={kind === 'inference' && !overlay ? () => setConfirmToken(true) : undefined}
                onFalToken={
                  kind === 'inference' && opt.provider === 'fal-ai' && falEntry && !overlay
                    ? () => void insertFalToken(falEntry.providerId)
                    : undefined
                }
              />
              {confirmToken && (
                <TokenConfirm
                  tokenSet={tokenSet}
                  onConfirm={() => {
                    setConfirmToken(false);
                    void insertMyToken();
                  }}
                  onCancel={() => setConfirmToken(false)}
                />
              )}
              {current && (
                <Suspense fallback={<Loading label="Loading editor…" />}>
                  <MonacoPane
                    key={key}
                    value={content}
                    language={current.language}
                    label={`${current.language} ${current.client} snippet`}
                    revision={`${resets}\n${current.content}`}
                    onChange={(v) => setEdits((e) => ({ ...e, [key]: { base: current.content, text: v } }))}
                  />
                </Suspense>
              )}
            </div>
            {kind === 'local-app' && <Deeplinks result={result} />}
          </div>
        )}
      </div>
      <div className="sw-toast" role="status" aria-live="polite" data-testid="toast">
        {toast}
      </div>
    </section>
  );
}
