import type { CatalogueItem, CatalogueTask } from '@shared/contract/catalogue';
import { ExternalLink } from '../../components/ExternalLink';
import { Empty } from '../../components/States';
import { CatLink, hubUrl } from './links';

/** A dataset or demo app (Space) named by the task data. */
export function ItemPage({
  kind,
  id,
  item,
  tasks,
}: {
  kind: 'dataset' | 'app';
  id: string;
  item?: CatalogueItem;
  tasks: Map<string, CatalogueTask>;
}) {
  const noun = kind === 'dataset' ? 'dataset' : 'demo app';
  return (
    <div data-testid={`${kind}-view`}>
      <header className="cat-title">
        <h1 className="mono cat-h1-id">{id}</h1>
        <span className="badge">{kind === 'dataset' ? 'Dataset' : 'Demo app (Space)'}</span>
      </header>
      {!item ? (
        <Empty title={`Not in the embedded catalogue`}>
          The task data does not mention this {noun}.{' '}
          <ExternalLink href={hubUrl(kind, id)}>Open it on the Hub</ExternalLink>
        </Empty>
      ) : (
        <section className="card cat-section">
          <p className="cat-summary">{item.description || <span className="muted">No description.</span>}</p>
          <h3 className="cat-h3">Listed by</h3>
          <ul className="cat-chips">
            {item.tasks.map((t) => (
              <li key={t}>
                <CatLink kind="task" id={t}>
                  {tasks.get(t)?.label ?? t}
                </CatLink>
              </li>
            ))}
          </ul>
          <p>
            <ExternalLink href={hubUrl(kind, id)}>Open on Hugging Face</ExternalLink>
          </p>
        </section>
      )}
    </div>
  );
}
