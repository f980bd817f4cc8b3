import { useEffect, useMemo, useRef } from 'react';
import { hubKindInfo, hubKinds } from '@shared/hub-kinds';
import { isHubOff } from '@shared/hub-off';
import { tabId, TabList } from '../../components/Tabs';
import { formatAge } from '../../lib/format';
import type { CatalogueView } from '../../store/catalogue';
import { useHubSearch, type KindResults } from '../../store/hub-search';
import { HubFilters } from './HubFilters';
import { HubKindView } from './HubList';
import { catalogueHref } from '../../store/route';
import { searchIndex, type SearchRecord } from '../../lib/catalogue-search';
import { groupProps, optionProps, useSearchOptions } from '../../store/search-listbox';

const hrefOf = (r: SearchRecord) => catalogueHref(r.kind, r.id);

/** Typing settles before the Hub is asked (each keystroke would otherwise be three requests). */
const DEBOUNCE_MS = 250;

/** The Hub has no total: the loaded count, with "+" while more pages exist. */
function tabCount(st: KindResults): string {
  if (st.error && !st.answered) return '!';
  if (!st.answered) return '…';
  return `${st.results.length}${st.next ? '+' : ''}`;
}

const hubOff = (st: KindResults) => isHubOff(st.error);

/** Embedded tasks and libraries that match: first-class results above the Hub's list, the search's first group. */
export function EmbeddedMatches({ view, query }: { view: CatalogueView; query: string }) {
  const matches = useMemo(() => {
    if (!query.trim()) return [];
    const tasks = searchIndex(view.index, query, { kind: 'task' }).slice(0, 6);
    const libs = searchIndex(view.index, query, { kind: 'library' }).slice(0, 6);
    return [...tasks, ...libs].map((i) => view.index.records[i]);
  }, [view, query]);
  const list = useMemo(
    () => (matches.length ? { count: matches.length, href: (i: number) => hrefOf(matches[i]) } : undefined),
    [matches],
  );
  const active = useSearchOptions('chips', list);
  if (matches.length === 0) return null;
  return (
    <section className="hub-embedded" data-testid="embedded-matches">
      <ul className="cat-chips search-chips" {...groupProps('chips', 'Tasks and libraries')}>
        {matches.map((r, i) => (
          <li key={`${r.kind}:${r.id}`} role="none">
            <a href={hrefOf(r)} {...optionProps('chips', i, active, matches.length)}>
              <span className={`badge cat-kind cat-kind-${r.kind}`}>{r.kind}</span> {r.label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The Hub's models, datasets and Spaces for the query: one tab per kind with its count, sort and filters, an
 * infinite list. `cachedOnly` (Hub access off): only pages seen before, from the cache, and nothing when there are none.
 */
export function HubSearch({ view, query, cachedOnly }: { view: CatalogueView; query: string; cachedOnly?: boolean }) {
  const kind = useHubSearch((s) => s.kind);
  const setKind = useHubSearch((s) => s.setKind);
  const byKind = useHubSearch((s) => s.byKind);
  const search = useHubSearch((s) => s.search);
  const filtered = useHubSearch((s) => Object.values(s.filters).some((v) => v !== undefined));
  const started = useRef(false);
  useEffect(() => {
    const wait = started.current ? DEBOUNCE_MS : 0;
    started.current = true;
    const t = setTimeout(() => search(query), wait);
    return () => clearTimeout(t);
  }, [query, search, cachedOnly]);

  const st = byKind[kind];
  // Offline with nothing cached for this search: no section (unless filters are set, so they can be cleared).
  if (cachedOnly && !filtered && hubKinds.every((k) => byKind[k].results.length === 0)) return null;
  return (
    <section className="hub-search" data-testid="hub-search" aria-label={cachedOnly ? 'Seen on the Hub' : 'On the Hub'}>
      <div className="hub-head">
        <h2>{cachedOnly ? 'Seen on the Hub' : 'On the Hub'}</h2>
        <TabList
          label="Kind"
          items={hubKinds}
          value={kind}
          onChange={setKind}
          idPrefix="hub"
          panelId="hub-tabpanel"
          className="hub-tabs"
          testid={(k) => `hub-tab-${k}`}
        >
          {(k) => (
            <>
              {hubKindInfo[k].label} <span className="cat-count">{tabCount(byKind[k])}</span>
            </>
          )}
        </TabList>
        {st.freshness?.source === 'cache' && (
          <span className="badge badge-warn" data-testid="hub-cache-age" title={st.freshness.reason}>
            cached · {formatAge(st.freshness.fetchedAt)}
          </span>
        )}
      </div>
      <HubFilters view={view} kind={kind} />
      <div id="hub-tabpanel" role="tabpanel" aria-labelledby={tabId('hub', kind)}>
        {cachedOnly && hubOff(st) ? (
          <p className="muted small">No {hubKindInfo[kind].noun} for this search in the cache.</p>
        ) : (
          <HubKindView
            kind={kind}
            st={st}
            view={view}
            noun={hubKindInfo[kind].noun}
            group={cachedOnly ? 'seen' : 'hub'}
          />
        )}
      </div>
    </section>
  );
}
