import { useMemo, useState, type ReactNode } from 'react';
import { ExternalLink } from '../../components/ExternalLink';
import { ErrorState, Loading } from '../../components/States';
import { useHubTree } from '../../hooks/hub';
import { useRepoSnippets } from '../../hooks/repo-snippets';
import { RepoSnippets } from './RepoSnippets';

/** A disclosure button and its panel: the snippets are asked for only once it is opened. */
function Disclosure({ label, testid, children }: { label: string; testid: string; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  const panel = `${testid}-panel`;
  return (
    <section className="card cat-section repo-use" data-testid={testid}>
      <button
        className="btn btn-primary"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((o) => !o)}
        data-testid={`${testid}-toggle`}
      >
        {label}
      </button>
      <div id={panel} hidden={!open}>
        {open && children()}
      </div>
    </section>
  );
}

/** The dataset's files (for pandas), then its snippets; a file list that cannot be had leaves pandas on the Parquet copy. */
function DatasetSnippets({ id }: { id: string }) {
  const { live } = useHubTree('dataset', id);
  const files = useMemo(
    () => (live.state === 'ok' ? live.entries.filter((e) => e.type === 'file').map((e) => e.path) : undefined),
    [live],
  );
  const q = useRepoSnippets('dataset', id, { files }, live.state !== 'loading');
  if (live.state === 'loading' || q.state === 'loading') return <Loading label="Preparing the snippets…" />;
  if (q.state === 'error') return <ErrorState error={q.error} title="Could not make the snippets" onRetry={q.reload} />;
  return <RepoSnippets id={id} snippets={q.data.snippets} label="Library" />;
}

/** "Use this dataset": `datasets`, pandas, `huggingface_hub` and the hf CLI, in editable panes. */
export function DatasetUse({ id }: { id: string }) {
  return (
    <Disclosure label="Use this dataset" testid="dataset-use">
      {() => <DatasetSnippets id={id} />}
    </Disclosure>
  );
}

/** A Space's app (served on hf.space) and, for a Gradio app, "Use via API" with gradio_client. */
export function SpaceUse({ id, sdk }: { id: string; sdk?: string }) {
  const q = useRepoSnippets('space', id, { sdk });
  if (q.state !== 'ok') return null;
  const { appUrl, snippets } = q.data;
  return (
    <>
      {appUrl && (
        <p className="repo-app-link" data-testid="space-app">
          <ExternalLink href={appUrl}>Open the app</ExternalLink> <span className="mono small muted">{appUrl}</span>
        </p>
      )}
      {snippets.length > 0 && (
        <Disclosure label="Use via API" testid="space-api">
          {() => <RepoSnippets id={id} snippets={snippets} label="Client" />}
        </Disclosure>
      )}
    </>
  );
}
