import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RepoKind } from '@shared/contract/hub-repo';
import type { AppError } from '@shared/errors';
import { ExternalLink } from '../../components/ExternalLink';
import { ErrorState, Loading } from '../../components/States';
import { hubUrlRewriter, repoWebPath } from '../../lib/hub-card-text';
import { renderCardProgressively, warmCardRenderer } from '../../lib/hub-card';
import { formatBytes } from '../../lib/format';
import { CardFields } from './CardFields';
import { Freshness } from './Freshness';
import { useHubEndpoint, useHubReadme } from '../../hooks/hub';

const noun = { model: 'model card', dataset: 'dataset card', space: 'Space card' };

// Loaded with the first repo page of a window: the card renderer's one-time compilation happens while the window is
// idle, not while the next card's page opens.
if (typeof requestIdleCallback === 'function') requestIdleCallback(warmCardRenderer, { timeout: 5_000 });

function NoCard({ kind }: { kind: RepoKind }) {
  return (
    <p className="muted" data-testid="repo-card-none">
      No card: this {noun[kind].replace(/ card$/, '')} has no README.
    </p>
  );
}

/** A repo's README rendered as sanitised markdown, front matter shown as fields above it. */
export function RepoCard({ kind, id, cardData }: { kind: RepoKind; id: string; cardData?: Record<string, unknown> }) {
  const endpoint = useHubEndpoint();
  const { live, reload } = useHubReadme(kind, id);
  const body = useRef<HTMLDivElement>(null);
  // The markdown whose rendering has finished: the card is busy until it is the one shown.
  const [renderedFor, setRenderedFor] = useState<string>();
  const rewrite = useMemo(() => hubUrlRewriter(endpoint, kind, id), [endpoint, kind, id]);
  const markdown = live.state === 'ok' ? live.markdown : undefined;
  const hubPage = `${endpoint.replace(/\/+$/, '')}/${repoWebPath(kind, id)}`;

  // A layout effect: the first piece goes in with the commit that mounts the card, so the frame that paints the page
  // shows it (a passive effect runs after that paint when the page renders from an answer that just arrived).
  useLayoutEffect(() => {
    if (!body.current || markdown === undefined) return;
    return renderCardProgressively(body.current, markdown, rewrite, {
      onDone: () => setRenderedFor(markdown),
      cacheKey: `${endpoint} ${kind} ${id}`,
    });
  }, [markdown, rewrite, endpoint, kind, id]);

  if (live.state === 'loading') return <Loading label={`Loading the ${noun[kind]}…`} />;
  if (live.state === 'off')
    return (
      <p className="muted" data-testid="repo-card-off">
        The {noun[kind]} comes from the Hub: turn on live Hub access to read it here.
      </p>
    );
  // The repo's page is open, so the repo exists: a 404 here means no README (a mirror that answers without the
  // Hub's EntryNotFound code, an empty repo): the quiet "no card", not an error asking to check the spelling.
  if (live.state === 'error' && live.error.code === 'not_found') return <NoCard kind={kind} />;
  if (live.state === 'error')
    return <ErrorState error={live.error as AppError} title={`Could not load the ${noun[kind]}`} onRetry={reload} />;
  if (live.gated)
    return (
      <section className="repo-card" data-testid="repo-card">
        <CardFields cardData={cardData} />
        <div className="cat-note repo-gated" role="note" data-testid="repo-card-gated">
          <strong>This {noun[kind]} is behind the repo's gate.</strong> {live.gated}{' '}
          <ExternalLink href={hubPage}>Accept the terms on the Hub</ExternalLink>
        </div>
      </section>
    );
  return (
    <section
      className="repo-card"
      data-testid="repo-card"
      aria-busy={markdown !== undefined && renderedFor !== markdown}
    >
      <CardFields cardData={cardData} />
      {live.freshness.source === 'cache' && (
        <p className="small">
          <Freshness f={live.freshness} />
        </p>
      )}
      {markdown === undefined ? (
        <NoCard kind={kind} />
      ) : (
        <div className="hub-card-body" data-testid="card-body" ref={body} />
      )}
      {live.truncated && (
        <p className="cat-note small" role="note" data-testid="card-truncated">
          Only the first {formatBytes(new TextEncoder().encode(markdown ?? '').length)}
          {live.size ? ` of ${formatBytes(live.size)}` : ''} are shown.{' '}
          <ExternalLink href={`${hubPage}/blob/main/README.md`}>Read the whole card on the Hub</ExternalLink>
        </p>
      )}
    </section>
  );
}
