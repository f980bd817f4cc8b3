import { memo, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { HubRepoSummary } from '@shared/contract/hub-search';
import { hubKindInfo, type HubKind } from '@shared/hub-kinds';
import { ErrorState } from '../../components/States';
import { formatAge } from '../../lib/format';
import type { CatalogueView } from '../../store/catalogue';
import { useHubSearch, type KindResults } from '../../store/hub-search';
import { groupProps, optionProps, useSearchOptions, type SearchGroup } from '../../store/search-listbox';
import { embeddedRepos } from './embedded';
import { catalogueHref } from '../../store/route';
import { afterPaint } from '../../lib/after-paint';
import { virtualRowStyle } from '../../lib/virtual-row';

const fmt = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
/** Rows from the end at which the next page is asked for. */
const PREFETCH_ROWS = 8;
const ROW_HEIGHT = 58;

/** Whether the embedded catalogue names this repo too (it is marked, not listed twice). */
const inCatalogue = (view: CatalogueView, r: HubRepoSummary) => embeddedRepos(view, r.kind).has(r.id);

/** A row re-renders only when its own result changes (a new page leaves the rows on screen alone). */
const HubRow = memo(function HubRow({
  r,
  view,
  group,
  index,
  active,
  count,
}: {
  r: HubRepoSummary;
  view: CatalogueView;
  group: SearchGroup;
  index: number;
  /** Whether this row is the search box's active option; the list's size, -1 unknown. */
  active: boolean;
  count: number;
}) {
  const age = r.lastModified ? formatAge(r.lastModified) : undefined;
  return (
    <a
      className="cat-row hub-row"
      href={catalogueHref(hubKindInfo[r.kind].page, r.id)}
      data-index={index}
      data-id={r.id}
      {...optionProps(group, index, active ? index : -1, count)}
    >
      <span className="cat-row-main">
        <span className="cat-row-title">
          <span className="mono">{r.id}</span>
          {r.gated && (
            <span className="badge badge-warn" title="Gated: accept the conditions on the Hub to download">
              gated
            </span>
          )}
          {r.private && <span className="badge">private</span>}
          {inCatalogue(view, r) && (
            <span className="badge badge-ok" title="Also named by @huggingface/tasks (the embedded catalogue)">
              in catalogue
            </span>
          )}
        </span>
        <span className="cat-row-detail hub-row-meta">
          {r.pipeline_tag && <span>{view.tasks.get(r.pipeline_tag)?.label ?? r.pipeline_tag}</span>}
          {r.library_name && <span>{view.libraries.get(r.library_name)?.prettyLabel ?? r.library_name}</span>}
          {r.sdk && <span>{r.sdk}</span>}
          {r.description && <span className="hub-row-desc">{r.description}</span>}
          {age && <span title={r.lastModified}>updated {age}</span>}
        </span>
      </span>
      <span className="hub-row-stats small muted">
        {r.downloads !== undefined && <span title="Downloads (last 30 days)">↓ {fmt.format(r.downloads)}</span>}
        {r.likes !== undefined && <span title="Likes">♥ {fmt.format(r.likes)}</span>}
      </span>
    </a>
  );
});

/** One kind's results, virtualized; scrolling near the end asks for the next page (the `Link` cursor). */
function HubList({
  kind,
  st,
  view,
  group,
}: {
  kind: HubKind;
  st: KindResults;
  view: CatalogueView;
  /** The search box's group these rows are: the Hub's answer, or pages seen before (cached, offline). */
  group: SearchGroup;
}) {
  const more = useHubSearch((s) => s.more);
  const parent = useRef<HTMLDivElement>(null);
  const footer = st.next || st.error || st.loading ? 1 : 0;
  const virt = useVirtualizer({
    count: st.results.length + footer,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virt.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (st.next && !st.loading && !st.refreshing && !st.error && lastIndex >= st.results.length - PREFETCH_ROWS)
      void more(kind);
  }, [lastIndex, st.next, st.loading, st.refreshing, st.error, st.results.length, kind, more]);
  // For `npm run bench` (answer → rendered → painted): rows are committed here; the task after the next frame's
  // callbacks runs once that frame is painted. Two marks per page loaded cost a few bytes.
  useLayoutEffect(() => {
    const count = st.results.length;
    if (!count) return;
    performance.mark('hub-search:rendered', { detail: { kind, count } });
    afterPaint(() => performance.mark('hub-search:painted', { detail: { kind, count } }));
  }, [st.results, kind]);

  const list = useMemo(
    () => ({
      count: st.results.length,
      scrollTo: (i: number) => virt.scrollToIndex(i),
      href: (i: number) => catalogueHref(hubKindInfo[kind].page, st.results[i].id),
    }),
    [st.results, kind, virt],
  );
  const active = useSearchOptions(group, list);

  const rows = items.filter((v) => v.index < st.results.length);
  const end = items.find((v) => v.index >= st.results.length);

  // The footer (loading more, or an error with its button) sits beside the rows, not among the listbox's options.
  return (
    <div
      ref={parent}
      className={`cat-results hub-list${st.refreshing ? ' stale' : ''}`}
      data-testid={`hub-list-${kind}`}
      aria-busy={st.loading || st.refreshing}
      style={{ height: `min(calc(100vh - 290px), ${virt.getTotalSize() + 2}px)`, position: 'relative' }}
    >
      <div
        {...groupProps(group, `${hubKindInfo[kind].label} ${group === 'seen' ? 'seen on' : 'on'} the Hub`)}
        style={{ height: virt.getTotalSize(), position: 'relative' }}
      >
        {rows.map((v) => (
          <div key={v.key} role="none" className="cat-row-wrap" style={virtualRowStyle(v)}>
            <HubRow
              r={st.results[v.index]}
              view={view}
              group={group}
              index={v.index}
              active={v.index === active}
              // The Hub has no total: "unknown" (-1) while more pages exist, so a new page re-renders no row.
              count={st.next ? -1 : st.results.length}
            />
          </div>
        ))}
      </div>
      {end && (
        <div className="cat-row-wrap" style={virtualRowStyle(end)}>
          {st.error ? (
            <div className="hub-list-end" role="alert">
              <span className="field-error">{st.error.message}</span>
              <button className="btn" onClick={() => void more(kind)}>
                Try again
              </button>
            </div>
          ) : (
            <div className="hub-list-end muted small" role="status">
              Loading more…
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** The whole state of one kind: first page loading, its error, nothing found, or the list. */
export function HubKindView({
  kind,
  st,
  view,
  noun,
  group,
}: {
  kind: HubKind;
  st: KindResults;
  view: CatalogueView;
  noun: string;
  group: SearchGroup;
}) {
  const retry = useHubSearch((s) => s.retry);
  if (st.error && st.results.length === 0)
    return <ErrorState error={st.error} title={`The Hub ${noun} search failed`} onRetry={() => retry(kind)} />;
  if (!st.answered)
    return (
      <div className="state" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>Searching the Hub’s {noun}…</span>
      </div>
    );
  if (st.results.length === 0)
    return (
      <div className="state state-empty" data-testid="hub-empty">
        <h2>No {noun} on the Hub match</h2>
        <p className="state-body">Try fewer words, another sort, or clear a filter.</p>
      </div>
    );
  // One list per kind: another tab is another list, from its top and with no active row.
  return <HubList key={kind} kind={kind} st={st} view={view} group={group} />;
}
