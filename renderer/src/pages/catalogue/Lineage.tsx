import type { LineageRelation } from '@shared/contract/hub-repo';
import { baseModels, derivedHeading, withoutSelf } from '@shared/lineage';
import type { ModelRecord } from '@shared/model-record';
import { useDerivedRepos } from '../../hooks/hub';
import { LINEAGE_RELATIONS as RELATIONS } from '../../store/hub-answers';
import { CatLink } from './links';
import { plural } from '@shared/plural';

const fmt = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const relationWord: Record<LineageRelation, string> = {
  quantized: 'quantized from',
  finetune: 'fine-tuned from',
  adapter: 'adapter for',
  merge: 'merged from',
};

/** Base models (up the tree) and the Hub repos derived from this one (down the tree), both as links. */
export function Lineage({ model }: { model: ModelRecord }) {
  const bases = baseModels(model.cardData, model.tags, model.id);
  const { derived, error } = useDerivedRepos(model.id);
  // A repo whose card names itself as its base comes back in its own "derived" lists: it is left out of them.
  const listed = (r: LineageRelation) => withoutSelf(derived[r]?.models ?? [], model.id);

  const lists = RELATIONS.filter((r) => listed(r).length > 0);
  if (bases.length === 0 && lists.length === 0 && !error) return null;
  return (
    <section className="card cat-section" data-testid="model-lineage">
      <h2>Model tree</h2>
      {bases.length > 0 && (
        <ul className="cat-list" data-testid="base-models">
          {bases.map((b) => (
            <li key={b.id}>
              <span className="muted">{b.relation ? relationWord[b.relation] : 'base model'}</span>{' '}
              <CatLink kind="model" id={b.id}>
                <span className="mono">{b.id}</span>
              </CatLink>
            </li>
          ))}
        </ul>
      )}
      {lists.map((r) => (
        <div key={r} data-testid={`derived-${r}`}>
          <h3 className="cat-h3">
            {derivedHeading[r]}{' '}
            <span className="muted small">
              {listed(r).length}
              {derived[r]!.more ? '+' : ''}
            </span>
          </h3>
          <ul className="cat-list">
            {listed(r).map((m) => (
              <li key={m.id}>
                <CatLink kind="model" id={m.id}>
                  <span className="mono">{m.id}</span>
                </CatLink>
                {m.downloads !== undefined && (
                  <span className="muted small">
                    {' '}
                    · {plural(m.downloads, 'download', undefined, (n) => fmt.format(n))}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {error && (
        <p className="muted small" role="alert">
          Derived models unavailable: {error.message}
        </p>
      )}
    </section>
  );
}
