import type { CatalogueLibrary, CatalogueTask } from '@shared/contract/catalogue';
import { ExternalLink } from '../../components/ExternalLink';
import { LibrarySample } from './LibrarySample';
import { CatLink } from './links';
import { TopHubModels } from './TopHubModels';

function TaskLinks({ ids, tasks }: { ids: string[]; tasks: Map<string, CatalogueTask> }) {
  if (ids.length === 0) return <p className="muted">None.</p>;
  return (
    <ul className="cat-chips">
      {ids.map((t) => (
        <li key={t}>
          <CatLink kind="task" id={t}>
            {tasks.get(t)?.label ?? tasks.get(t)?.name ?? t}
          </CatLink>
        </li>
      ))}
    </ul>
  );
}

/** A library's page: its entry in MODEL_LIBRARIES_UI_ELEMENTS and the tasks that list it. Pure. */
export function LibraryView({ lib, tasks }: { lib: CatalogueLibrary; tasks: Map<string, CatalogueTask> }) {
  const declaredOnly = lib.declaredTasks.filter((t) => !lib.tasks.includes(t));
  return (
    <div className="cat-library" data-testid="library-view">
      <header className="cat-title">
        <h1>{lib.prettyLabel}</h1>
        <span className="mono muted">{lib.id}</span>
      </header>
      <section className="card cat-section">
        <dl className="cat-facts">
          <dt>Repository</dt>
          <dd>
            <ExternalLink href={lib.repoUrl}>{lib.repoName}</ExternalLink>
          </dd>
          <dt>Documentation</dt>
          <dd>
            {lib.docsUrl ? (
              <ExternalLink href={lib.docsUrl}>{lib.docsUrl}</ExternalLink>
            ) : (
              <span className="muted">—</span>
            )}
          </dd>
          <dt>Hub filter</dt>
          <dd data-testid="library-filter">
            {lib.filter === true
              ? 'Offered as a filter on the Hub’s model list'
              : lib.filter === false
                ? 'Not offered as a filter'
                : 'Not stated (not offered as a filter)'}
          </dd>
          <dt>Snippets</dt>
          <dd data-testid="library-snippets">
            {lib.hasSnippets ? 'Has a usage snippet generator' : 'No snippet generator'}
          </dd>
          <dt>Download count</dt>
          <dd data-testid="library-downloads">
            {lib.countDownloads ? (
              <>
                <code className="cat-code">{lib.countDownloads}</code>
                <p className="help">
                  Which file fetches count as a download of a {lib.prettyLabel} model: a request for a file matching
                  this query (Elastic-style: <code>path</code> is an exact file name, <code>path_extension</code> a file
                  extension, <code>path_prefix</code> a path start; <code>OR</code>/<code>AND</code> combine them).
                </p>
              </>
            ) : (
              <span className="muted">
                Not set: the Hub’s default applies (a fetch of <code>config.json</code>, or of any file for repos
                without it).
              </span>
            )}
          </dd>
        </dl>
      </section>
      <TopHubModels library={lib.id} />
      <LibrarySample lib={lib} />
      <section className="card cat-section" data-testid="library-tasks">
        <h2>Tasks that list it</h2>
        <TaskLinks ids={lib.tasks} tasks={tasks} />
        {declaredOnly.length > 0 && (
          <>
            <h3 className="cat-h3">Also declared by the library</h3>
            <TaskLinks ids={declaredOnly} tasks={tasks} />
          </>
        )}
      </section>
    </div>
  );
}
