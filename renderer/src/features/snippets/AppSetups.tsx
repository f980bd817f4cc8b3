import { lazy, Suspense, useState, type ReactNode } from 'react';
import { isTextModel } from '@shared/chat-model';
import type { LocalModel } from '@shared/contract/local-models';
import type { AppSetup, AppSetups as Filled } from '@shared/contract/local-server';
import { Empty, ErrorState, Loading } from '../../components/States';
import { tabId, TabList } from '../../components/Tabs';
import { useLocalLibrary, useServerSetups } from '../../hooks/local';
import { saveSnippet } from '../../hooks/snippets';
import { PaneToolbar, SnippetNotes } from './PaneParts';
import { copyText, useToast } from './workbench-helpers';
import './snippets.css';

// Monaco is a separate chunk: it loads only when a setup is shown.
const MonacoPane = lazy(() => import('./MonacoPane'));

const extensions: Record<AppSetup['language'], string> = {
  python: 'py',
  js: 'mjs',
  sh: 'sh',
  yaml: 'yaml',
  json: 'json',
  text: 'txt',
};
const contextFrom: Record<Filled['contextFrom'], string> = {
  loaded: 'as loaded now',
  plan: 'as the server loads it',
  default: 'a guess: the model’s header does not say',
};

/**
 * "Use from another app": ready setups (SDKs, editors, agents, curl) for one of `models`, each in an editable pane
 * to copy or save. Main fills them; the key is never among them (each reads it from an environment variable).
 */
export function AppSetups({ models, empty, idPrefix }: { models: LocalModel[]; empty: ReactNode; idPrefix: string }) {
  const [picked, setPicked] = useState<string>();
  const model = models.find((m) => m.id === picked)?.id ?? models[0]?.id;
  const q = useServerSetups(model);
  const [toast, showToast] = useToast();
  if (!model)
    return (
      <Empty title="No chat model on disk">
        <span data-testid="setups-empty">{empty}</span>
      </Empty>
    );
  return (
    <div className="app-setups" data-testid="app-setups">
      <label className="sw-opt">
        <span>Model</span>
        <select value={model} onChange={(e) => setPicked(e.target.value)} data-testid="setups-model">
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.title || m.name}
              {m.quant ? ` · ${m.quant}` : ''}
            </option>
          ))}
        </select>
      </label>
      {q.state === 'error' ? (
        <ErrorState error={q.error} title="Could not fill the setups" onRetry={q.reload} />
      ) : q.state === 'loading' ? (
        <Loading label="Filling the setups…" />
      ) : (
        <SetupPanes key={q.data.model} filled={q.data} idPrefix={idPrefix} notify={showToast} />
      )}
      <div className="sw-toast" role="status" aria-live="polite" data-testid="setups-toast">
        {toast}
      </div>
    </div>
  );
}

/** The facts the setups were filled with, the app tabs, and the chosen app's steps and pane. */
function SetupPanes({ filled, idPrefix, notify }: { filled: Filled; idPrefix: string; notify(msg: string): void }) {
  const [app, setApp] = useState(filled.setups[0]?.id);
  // The user's edits per app, with the text they were made on (a setup filled again shows the new text).
  const [edits, setEdits] = useState<Record<string, { base: string; text: string }>>({});
  const [resets, setResets] = useState(0);
  const current = filled.setups.find((s) => s.id === app) ?? filled.setups[0];
  if (!current) return null;
  const edit = edits[current.id]?.base === current.content ? edits[current.id].text : undefined;
  const content = edit ?? current.content;
  const edited = edit !== undefined && edit !== current.content;
  const panelId = `${idPrefix}-pane`;

  const copy = async (text: string, what: string) => {
    try {
      await copyText(text);
      notify(`${what} copied to the clipboard`);
    } catch {
      notify('The clipboard is not available here: select the text and copy it');
    }
  };

  return (
    <>
      <p className="help" data-testid="setups-facts">
        For <strong>{filled.name}</strong> at <code>{filled.baseUrl}</code>, {filled.contextLength} tokens of context (
        {contextFrom[filled.contextFrom]}). Each setup reads the server’s key from <code>{filled.keyEnv}</code>: set it
        where the app runs (<code>export {filled.keyEnv}=…</code>); HubDesk never writes the key in.
      </p>
      {!filled.running && (
        <div className="sw-warning" role="note" data-testid="setups-off">
          The local server is off: turn it on (Local models → Built-in engine → Local server) for these to connect.
        </div>
      )}
      <TabList
        label="App"
        items={filled.setups.map((s) => s.id)}
        value={current.id}
        onChange={setApp}
        idPrefix={`${idPrefix}-app`}
        panelId={panelId}
        className="app-setup-tabs"
        tabClassName="app-setup-tab"
        testid={(id) => `setup-${id}`}
      >
        {(id) => filled.setups.find((s) => s.id === id)?.title}
      </TabList>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(`${idPrefix}-app`, current.id)}>
        {current.steps && (
          <ol className="app-setup-steps" data-testid="setup-steps">
            {current.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        )}
        <SnippetNotes snippet={current} onCopy={(text) => void copy(text, 'Install command')} />
        <div className="sw-pane">
          <PaneToolbar
            title={current.file ? `${current.title} · ${current.file}` : current.title}
            edited={edited}
            canReset={edited}
            busy={false}
            onCopy={() => void copy(content, `${current.title} setup`)}
            onReset={() => {
              setEdits((e) => {
                const next = { ...e };
                delete next[current.id];
                return next;
              });
              setResets((n) => n + 1);
            }}
            onSave={() =>
              void saveSnippet(current.file ?? `hubdesk-${current.id}.${extensions[current.language]}`, content, notify)
            }
          />
          <Suspense fallback={<Loading label="Loading editor…" />}>
            <MonacoPane
              key={current.id}
              value={content}
              language={current.language}
              label={`${current.title} setup`}
              revision={`${resets}\n${current.content}`}
              onChange={(v) => setEdits((e) => ({ ...e, [current.id]: { base: current.content, text: v } }))}
            />
          </Suspense>
        </div>
      </div>
    </>
  );
}

/**
 * The workbench's Other apps tab: the setups for this repo's GGUFs on disk (the quant picked on the page first), so
 * an app uses the model through HubDesk's local server.
 */
export function RepoAppSetups({ repo, quant }: { repo: string; quant?: string }) {
  const lib = useLocalLibrary();
  const own = lib.data?.models
    .filter((m) => m.repo?.toLowerCase() === repo.toLowerCase() && isTextModel(m) && !m.problem)
    .sort((a, b) => Number(b.quant === quant) - Number(a.quant === quant));
  if (own)
    return (
      <AppSetups
        models={own}
        idPrefix="sw-setups"
        empty="No chat GGUF of this repo is on disk: download one (its files, or Local models → Built-in engine) to use it from other apps through HubDesk’s local server."
      />
    );
  if (lib.state === 'error')
    return <ErrorState error={lib.error} title="Could not list the models on disk" onRetry={lib.reload} />;
  return <Loading label="Listing the models on disk…" />;
}
