import { lazy, Suspense, useEffect, useState } from 'react';
import type { Snippet } from '@shared/contract/snippets';
import { useChatCode } from '../../hooks/chat';
import { ErrorState, Loading } from '../../components/States';
import { tabId, TabList } from '../../components/Tabs';
import { copyText } from './clipboard';

// Monaco is a separate chunk, shared with the snippet workbench: it loads only when this pane opens.
const MonacoPane = lazy(() => import('../../features/snippets/MonacoPane'));

const label = (s: Snippet) =>
  `${{ python: 'Python', js: 'JavaScript', sh: 'curl' }[s.language] ?? s.language} · ${s.client}`;

/** "Open as code": the conversation as runnable snippets (python / js / curl) in an editable Monaco pane. */
export function CodePane({ id, version, onClose }: { id: string; version: string; onClose(): void }) {
  const code = useChatCode(id, version);
  const state = { snippets: code.data?.snippets, notice: code.data?.notice, error: code.error };
  const [tab, setTab] = useState(0);
  const [text, setText] = useState('');
  const [copied, setCopied] = useState(false);

  const current = state.snippets?.[tab] ?? state.snippets?.[0];
  useEffect(() => setText(current?.content ?? ''), [current]);

  return (
    <div className="code-pane" data-testid="code-pane">
      <div className="code-pane-head">
        <strong>Open as code</strong>
        <span className="spacer" />
        <button
          className="btn btn-ghost btn-xs"
          disabled={!text}
          onClick={async () => {
            const ok = await copyText(text);
            if (ok !== undefined) setCopied(ok);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button className="btn btn-ghost btn-xs" onClick={onClose} aria-label="Close code">
          Close
        </button>
      </div>
      <TabList
        label="Language and client"
        items={(state.snippets ?? []).map((_, i) => String(i))}
        value={String(tab)}
        onChange={(v) => setTab(Number(v))}
        idPrefix="code"
        panelId="code-pane-panel"
        className="segmented code-pane-tabs"
      >
        {(v) => label(state.snippets![Number(v)])}
      </TabList>
      <div
        id="code-pane-panel"
        role="tabpanel"
        aria-labelledby={tabId('code', String(tab))}
        style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
      >
        {state.error ? (
          <ErrorState error={state.error} title="No snippet for this conversation" />
        ) : !state.snippets ? (
          <Loading label="Writing the snippet…" />
        ) : current ? (
          <>
            {current.install && <code className="code-install">{current.install}</code>}
            {state.notice && <p className="muted small">{state.notice}</p>}
            <Suspense fallback={<Loading label="Loading editor…" />}>
              <MonacoPane
                value={text}
                language={current.language}
                onChange={setText}
                revision={`${version}:${tab}`}
                label={`Snippet: ${label(current)}`}
              />
            </Suspense>
          </>
        ) : (
          <p className="muted">{state.notice ?? 'The snippet engine has no snippet for this model.'}</p>
        )}
      </div>
    </div>
  );
}
