import { lazy, Suspense, useState } from 'react';
import type { Snippet } from '@shared/contract/snippets';
import { Loading } from '../../components/States';
import { tabId, TabList } from '../../components/Tabs';
import { snippetFileName } from '../../features/snippets/file-name';
import { PaneToolbar, SnippetNotes } from '../../features/snippets/PaneParts';
import { copyText, useToast } from '../../features/snippets/workbench-helpers';
import { useSaveSnippet } from '../../hooks/repo-snippets';
import '../../features/snippets/snippets.css';

// Monaco is its own chunk, loaded when a pane first shows.
const MonacoPane = lazy(() => import('../../features/snippets/MonacoPane'));

/** A dataset's or a Space's snippets, one tab per client, in the editable panes of "Use this model". */
export function RepoSnippets({ id, snippets, label }: { id: string; snippets: Snippet[]; label: string }) {
  const clients = snippets.map((s) => s.client);
  const [client, setClient] = useState(clients[0]);
  // The user's text per client (kept across tabs), and a revision per Reset so the editor takes the text back.
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [resets, setResets] = useState(0);
  const [toast, showToast] = useToast();
  const save = useSaveSnippet(showToast);
  const current = snippets.find((s) => s.client === client) ?? snippets[0];
  if (!current) return null;
  const text = edits[current.client] ?? current.content;
  const copy = async (value: string, what: string) => {
    try {
      await copyText(value);
      showToast(`${what} copied`);
    } catch {
      showToast('The clipboard is not available here: select the text and copy it.');
    }
  };
  const panelId = `repo-sn-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="repo-snippets" data-testid="repo-snippets">
      <div className="sw-pickers">
        <TabList
          label={label}
          items={clients}
          value={current.client}
          onChange={setClient}
          idPrefix={panelId}
          panelId={panelId}
          className="segmented"
          testid={(c) => `client-${c}`}
        >
          {(c) => c}
        </TabList>
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(panelId, current.client)}>
        <SnippetNotes snippet={current} onCopy={(t) => void copy(t, 'Install command')} />
        <div className="sw-pane">
          <PaneToolbar
            title={current.title ?? current.client}
            edited={text !== current.content}
            canReset={text !== current.content}
            busy={false}
            onCopy={() => void copy(text, 'Snippet')}
            onReset={() => {
              setEdits((e) => {
                const next = { ...e };
                delete next[current.client];
                return next;
              });
              setResets((n) => n + 1);
            }}
            onSave={() => void save(snippetFileName(id, current.language, current.client), text)}
          />
          <Suspense fallback={<Loading label="Loading editor…" />}>
            <MonacoPane
              value={text}
              language={current.language}
              revision={`${current.client} ${resets}`}
              label={`${current.client} snippet for ${id}`}
              onChange={(v) => setEdits((e) => ({ ...e, [current.client]: v }))}
            />
          </Suspense>
        </div>
      </div>
      <div className="sw-toast" role="status" aria-live="polite" data-testid="toast">
        {toast}
      </div>
    </div>
  );
}
