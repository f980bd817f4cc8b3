import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { hubKindInfo, hubKindOfPage } from '@shared/hub-kinds';
import { Empty } from '../../components/States';
import type { SearchKind, SearchRecord } from '../../lib/catalogue-search';
import type { CatalogueView } from '../../store/catalogue';
import { groupProps, optionProps, useSearchOptions } from '../../store/search-listbox';
import { catalogueHref } from '../../store/route';
import { virtualRowStyle } from '../../lib/virtual-row';

/** A row's kind as a badge: a task, a library, or one Hub repo ("Space"). */
const kindBadge = (k: SearchKind) => (k === 'task' || k === 'library' ? k : hubKindInfo[hubKindOfPage(k)].nounOne);

function ResultRow({ r, view, option }: { r: SearchRecord; view: CatalogueView; option: object }) {
  return (
    <a className="cat-row" href={catalogueHref(r.kind, r.id)} data-kind={r.kind} {...option}>
      <span className={`badge cat-kind cat-kind-${r.kind}`}>{kindBadge(r.kind)}</span>
      <span className="cat-row-main">
        <span className="cat-row-title">
          <span className={r.kind === 'task' || r.kind === 'library' ? '' : 'mono'}>{r.label}</span>
          {r.label !== r.id && <span className="mono small muted">{r.id}</span>}
        </span>
        {r.detail && <span className="cat-row-detail">{r.detail}</span>}
      </span>
      {r.kind !== 'task' && r.tasks[0] && (
        <span className="badge cat-row-task">{view.tasks.get(r.tasks[0])?.label ?? r.tasks[0]}</span>
      )}
    </a>
  );
}

/** The embedded catalogue's matches, virtualised: the search box's first group with Hub access off. */
export function EmbeddedResults({ view, indices }: { view: CatalogueView; indices: number[] }) {
  const parent = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({
    count: indices.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 58,
    overscan: 12,
  });
  const list = useMemo(
    () => ({
      count: indices.length,
      scrollTo: (i: number) => virt.scrollToIndex(i),
      href: (i: number) => {
        const r = view.index.records[indices[i]];
        return catalogueHref(r.kind, r.id);
      },
    }),
    [indices, view, virt],
  );
  const active = useSearchOptions('embedded', indices.length ? list : undefined);
  if (indices.length === 0) return <Empty title="Nothing matches">Check the spelling, or clear a filter.</Empty>;
  return (
    <div
      ref={parent}
      className="cat-results"
      data-testid="catalogue-results"
      {...groupProps('embedded', 'Results in the embedded catalogue')}
      style={{ height: `min(calc(100vh - 230px), ${virt.getTotalSize() + 2}px)` }}
    >
      <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
        {virt.getVirtualItems().map((v) => (
          <div key={v.key} role="none" className="cat-row-wrap" style={virtualRowStyle(v)}>
            <ResultRow
              r={view.index.records[indices[v.index]]}
              view={view}
              option={optionProps('embedded', v.index, active, indices.length)}
            />
          </div>
        ))}
      </div>
    </div>
  );
}
