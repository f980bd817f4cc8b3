import { memo, useEffect, useState } from 'react';
import { sortFor, type HubSort } from '@shared/contract/hub-search';
import type { HubKind } from '@shared/hub-kinds';
import { OptionSelect } from '../../components/OptionSelect';
import { libraryOptions, taskOptions, type CatalogueView } from '../../store/catalogue';
import { kindFilters, useHubSearch } from '../../store/hub-search';

const sortLabels: Record<HubSort, string> = {
  trending: 'Trending',
  downloads: 'Most downloads',
  likes: 'Most likes',
  updated: 'Recently updated',
  created: 'Recently created',
};

/** Licences people filter by most on the Hub (`license:<id>` tags). */
const licenses = [
  'apache-2.0',
  'mit',
  'llama3.1',
  'llama3.2',
  'gemma',
  'cc-by-4.0',
  'cc-by-nc-4.0',
  'openrail',
  'other',
].map((l) => ({ value: l, label: l }));

const sdks = ['gradio', 'streamlit', 'docker', 'static'].map((s) => ({
  value: s,
  label: s[0].toUpperCase() + s.slice(1),
}));

/** Sort and the filters that apply to the current kind (not re-rendered when a page of results arrives). */
export const HubFilters = memo(function HubFilters({ view, kind }: { view: CatalogueView; kind: HubKind }) {
  const sort = useHubSearch((s) => s.sort);
  const filters = useHubSearch((s) => s.filters);
  const setSort = useHubSearch((s) => s.setSort);
  const setFilters = useHubSearch((s) => s.setFilters);
  const applies = (k: (typeof kindFilters)[HubKind][number]) => kindFilters[kind].includes(k);
  const [author, setAuthor] = useState(filters.author ?? '');
  useEffect(() => setAuthor(filters.author ?? ''), [filters.author]);
  const commitAuthor = () => {
    const v = author.trim();
    if (v !== (filters.author ?? '')) setFilters({ author: v || undefined });
  };
  const anySet = kindFilters[kind].some((k) => filters[k] !== undefined);

  return (
    <div className="cat-filters hub-filters" role="group" aria-label="Hub sort and filters">
      {/* Shows the order actually sent: Spaces sort "Most downloads" by likes. */}
      <select aria-label="Sort" value={sortFor(kind, sort)} onChange={(e) => setSort(e.target.value as HubSort)}>
        {(Object.keys(sortLabels) as HubSort[])
          .filter((s) => !(kind === 'spaces' && s === 'downloads'))
          .map((s) => (
            <option key={s} value={s}>
              {sortLabels[s]}
            </option>
          ))}
      </select>
      {applies('task') && (
        <OptionSelect
          label="Task"
          any="Any task"
          value={filters.task}
          options={taskOptions(view)}
          onChange={(task) => setFilters({ task })}
        />
      )}
      {applies('library') && (
        <OptionSelect
          label="Library"
          any="Any library"
          value={filters.library}
          options={libraryOptions(view)}
          onChange={(library) => setFilters({ library })}
        />
      )}
      {applies('sdk') && (
        <OptionSelect
          label="SDK"
          any="Any SDK"
          value={filters.sdk}
          options={sdks}
          onChange={(sdk) => setFilters({ sdk: sdk as typeof filters.sdk })}
        />
      )}
      <OptionSelect
        label="Licence"
        any="Any licence"
        value={filters.license}
        options={licenses}
        onChange={(license) => setFilters({ license })}
      />
      <input
        className="hub-author"
        aria-label="Author"
        placeholder="Author or organisation"
        value={author}
        spellCheck={false}
        onChange={(e) => setAuthor(e.target.value)}
        onBlur={commitAuthor}
        onKeyDown={(e) => e.key === 'Enter' && commitAuthor()}
      />
      {applies('runsLocally') && (
        <select
          aria-label="Runs locally"
          value={filters.runsLocally ?? ''}
          onChange={(e) => setFilters({ runsLocally: (e.target.value || undefined) as typeof filters.runsLocally })}
        >
          <option value="">Runs anywhere</option>
          <option value="gguf">Runs locally: GGUF</option>
          <option value="mlx">Runs locally: MLX</option>
        </select>
      )}
      {applies('provider') && (
        <label className="hub-check">
          <input
            type="checkbox"
            checked={!!filters.provider}
            onChange={(e) => setFilters({ provider: e.target.checked || undefined })}
          />
          Served by a provider
        </label>
      )}
      {anySet && (
        <button
          className="btn btn-ghost"
          onClick={() =>
            setFilters({
              task: undefined,
              library: undefined,
              license: undefined,
              author: undefined,
              runsLocally: undefined,
              provider: undefined,
              sdk: undefined,
            })
          }
        >
          Clear filters
        </button>
      )}
    </div>
  );
});
