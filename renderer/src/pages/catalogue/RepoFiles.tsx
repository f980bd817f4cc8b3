import { useMemo, useState } from 'react';
import type { RepoKind, TreeEntry } from '@shared/contract/hub-repo';
import { ExternalLink } from '../../components/ExternalLink';
import { ErrorState, Loading } from '../../components/States';
import { buildFileTree, type FolderNode } from '../../lib/file-tree';
import { formatBytes } from '../../lib/format';
import { repoWebPath } from '../../lib/hub-card-text';
import { Freshness } from './Freshness';
import { useHubEndpoint, useHubTree, useHubTreePage } from '../../hooks/hub';
import { plural } from '@shared/plural';

/** Rows shown per folder before "Show more": a folder of 10,000 files must not become 10,000 DOM rows at once. */
const ROWS_PER_FOLDER = 200;
const en = (n: number) => n.toLocaleString('en');

function Folder({ node, depth, open, toggle, blob }: FolderProps) {
  const [shown, setShown] = useState(ROWS_PER_FOLDER);
  const rows = [...node.folders.map((f) => ({ f })), ...node.files.map((e) => ({ e }))];
  return (
    <>
      {rows
        .slice(0, shown)
        .map((r) =>
          'f' in r ? (
            <FolderRow key={r.f.path} node={r.f} depth={depth} open={open} toggle={toggle} blob={blob} />
          ) : (
            <FileRow key={r.e.path} entry={r.e} depth={depth} blob={blob} />
          ),
        )}
      {rows.length > shown && (
        <li className="repo-file-more" style={{ paddingLeft: depth * 18 }}>
          <button className="btn btn-ghost" onClick={() => setShown((n) => n + 1000)}>
            Show {Math.min(1000, rows.length - shown).toLocaleString('en')} more
            {rows.length - shown > 1000 && ` (${(rows.length - shown).toLocaleString('en')} left)`}
          </button>
        </li>
      )}
    </>
  );
}

interface FolderProps {
  node: FolderNode;
  depth: number;
  open: Set<string>;
  toggle: (path: string) => void;
  blob: (path: string) => string;
}

function FolderRow({ node, depth, open, toggle, blob }: FolderProps) {
  const isOpen = open.has(node.path);
  return (
    <li className="repo-folder" data-path={node.path}>
      <button
        className="repo-file-row repo-folder-row"
        aria-expanded={isOpen}
        onClick={() => toggle(node.path)}
        style={{ paddingLeft: 8 + depth * 18 }}
      >
        <span className="repo-file-name">
          <span aria-hidden="true">{isOpen ? '▾' : '▸'} </span>
          {node.name}/
        </span>
        <span className="muted small">{plural(node.fileCount, 'file', undefined, en)}</span>
        <span className="repo-file-size" data-testid="folder-size">
          {formatBytes(node.size)}
        </span>
      </button>
      {isOpen && (
        <ul className="repo-file-list">
          <Folder node={node} depth={depth + 1} open={open} toggle={toggle} blob={blob} />
        </ul>
      )}
    </li>
  );
}

function FileRow({ entry, depth, blob }: { entry: TreeEntry; depth: number; blob: (path: string) => string }) {
  const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
  return (
    <li className="repo-file-row" data-path={entry.path} style={{ paddingLeft: 8 + depth * 18 + 14 }}>
      <span className="repo-file-name mono">
        <ExternalLink href={blob(entry.path)}>{name}</ExternalLink>
      </span>
      <span>
        {entry.lfs && (
          <span className="badge" title="Stored with Git LFS (large file storage)">
            LFS
          </span>
        )}
      </span>
      <span className="repo-file-size">{formatBytes(entry.lfs?.size ?? entry.size)}</span>
    </li>
  );
}

/** The Files tab: the repo tree with folder totals and LFS marks, bounded for huge repos. */
export function RepoFiles({ kind, id }: { kind: RepoKind; id: string }) {
  const endpoint = useHubEndpoint();
  const { live, reload } = useHubTree(kind, id);
  const page = useHubTreePage(kind, id);
  const [more, setMore] = useState<{ entries: TreeEntry[]; next?: string }>({ entries: [] });
  const [open, setOpen] = useState<Set<string>>(new Set());
  const base = `${endpoint.replace(/\/+$/, '')}/${repoWebPath(kind, id)}`;
  const entries = useMemo(() => (live.state === 'ok' ? [...live.entries, ...more.entries] : []), [live, more.entries]);
  const root = useMemo(() => buildFileTree(entries), [entries]);
  const next = more.entries.length ? more.next : live.state === 'ok' ? live.next : undefined;

  if (live.state === 'loading') return <Loading label="Listing the files…" />;
  if (live.state === 'off')
    return <p className="muted">The file list comes from the Hub: turn on live Hub access to see it.</p>;
  // The repo exists (its page is open): a 404 is an empty repo (no `main` yet), said quietly.
  if ((live.state === 'error' && live.error.code === 'not_found') || (live.state === 'ok' && !entries.length))
    return (
      <p className="muted" data-testid="repo-files-none">
        No files listed.
      </p>
    );
  if (live.state === 'error')
    return <ErrorState error={live.error} title="Could not list the files" onRetry={reload} />;

  const loadMore = async () => {
    if (!next) return;
    const res = await page.run(next);
    if (res) setMore((m) => ({ entries: [...m.entries, ...res.entries], next: res.next }));
  };
  const toggle = (path: string) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(path)) n.delete(path);
      else n.add(path);
      return n;
    });

  return (
    <section className="repo-files" data-testid="repo-files">
      <p className="repo-files-summary" data-testid="files-summary">
        {plural(root.fileCount, 'file', undefined, en)} · {formatBytes(root.size)}
        {live.freshness.source === 'cache' && (
          <>
            {' '}
            <Freshness f={live.freshness} />
          </>
        )}
      </p>
      <ul className="repo-file-list" aria-label="Files">
        <Folder node={root} depth={0} open={open} toggle={toggle} blob={(p) => `${base}/blob/main/${p}`} />
      </ul>
      {next && (
        <div className="cat-note small repo-files-bounded" role="note" data-testid="files-bounded">
          Showing the first {entries.length.toLocaleString('en')} entries: this repo has more.{' '}
          <button className="btn btn-ghost" disabled={page.busy} onClick={() => void loadMore()}>
            {page.busy ? 'Loading…' : 'Load more'}
          </button>{' '}
          <ExternalLink href={`${base}/tree/main`}>Open on the Hub</ExternalLink>
          {page.error && <span role="alert"> {page.error.message}</span>}
        </div>
      )}
    </section>
  );
}
