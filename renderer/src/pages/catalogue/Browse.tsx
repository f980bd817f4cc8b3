import { OptionSelect } from '../../components/OptionSelect';
import { RadioGroup } from '../../components/RadioGroup';
import { kindLabels, searchKinds, type SearchKind } from '../../lib/catalogue-search';
import { libraryOptions, taskOptions, useCatalogue, type CatalogueView } from '../../store/catalogue';
import { EmbeddedResults } from './EmbeddedResults';
import { HubSearch } from './HubSearch';
import { TaskGroups } from './TaskGroups';
import { useSearch } from './useSearch';
import { plural } from '@shared/plural';

const kindChoices = ['all', ...searchKinds] as const;

/**
 * Hub access off: the embedded catalogue, searched and filtered on this machine (the task groups until something is
 * typed or filtered), with the Hub's answers seen before below the results.
 */
export function Browse({ view }: { view: CatalogueView }) {
  const { query, filters, setFilters } = useCatalogue();
  const indices = useSearch(view.index, query, filters);
  const filtered = !!(filters.kind || filters.modality || filters.task || filters.library);
  const counts: Record<SearchKind, number> = {
    task: view.data.tasks.length,
    library: view.data.libraries.length,
    model: view.data.models.length,
    dataset: view.data.datasets.length,
    app: view.data.apps.length,
  };

  return (
    <>
      <div className="cat-filters" role="group" aria-label="Filters">
        <RadioGroup
          label="Kind"
          items={kindChoices}
          value={filters.kind ?? 'all'}
          onChange={(k) => setFilters({ kind: k === 'all' ? undefined : k })}
          testid={(k) => (k === 'all' ? undefined : `kind-${k}`)}
        >
          {(k) =>
            k === 'all' ? (
              'All'
            ) : (
              <>
                {kindLabels[k]} <span className="cat-count">{counts[k]}</span>
              </>
            )
          }
        </RadioGroup>
        <OptionSelect
          label="Modality"
          any="Any modality"
          value={filters.modality}
          options={view.data.modalities.map((m) => ({ value: m.id, label: m.label }))}
          onChange={(modality) => setFilters({ modality })}
        />
        <OptionSelect
          label="Task"
          any="Any task"
          value={filters.task}
          options={taskOptions(view)}
          onChange={(task) => setFilters({ task })}
        />
        <OptionSelect
          label="Library"
          any="Any library"
          value={filters.library}
          options={libraryOptions(view)}
          onChange={(library) => setFilters({ library })}
        />
        {filtered && (
          <button
            className="btn btn-ghost"
            onClick={() => setFilters({ kind: undefined, modality: undefined, task: undefined, library: undefined })}
          >
            Clear filters
          </button>
        )}
      </div>
      <p className="muted small cat-summary-line">
        Hub access is off: searching the embedded catalogue. <a href="#/settings">Change in Settings</a>
      </p>
      {!query.trim() && !filtered ? (
        <TaskGroups view={view} />
      ) : (
        <>
          <p className="muted small cat-summary-line" data-testid="result-count">
            {plural(indices.length, 'result')} in the embedded catalogue
          </p>
          <EmbeddedResults view={view} indices={indices} />
          {query.trim() && <HubSearch view={view} query={query} cachedOnly />}
        </>
      )}
    </>
  );
}
