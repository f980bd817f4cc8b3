import type { CatalogueItem, CatalogueTask } from '@shared/contract/catalogue';
import type { HubRepoInfo } from '@shared/contract/hub-repo';
import { hubKindInfo, type HubKind } from '@shared/hub-kinds';
import { ExternalLink } from '../../components/ExternalLink';
import { Empty, Loading } from '../../components/States';
import { formatAge } from '../../lib/format';
import { repoWebPath } from '../../lib/hub-card-text';
import { useSettings } from '../../store/settings';
import { Freshness } from './Freshness';
import { useHubEndpoint, useHubRepo } from '../../hooks/hub';
import { catalogueHref } from '../../store/route';
import { CatLink } from './links';
import { RepoTabs } from './RepoTabs';
import { DatasetUse, SpaceUse } from './RepoUse';
import { groupRepoTags, licenceOf } from './repo-tags';

const fmtCount = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

function Stats({ repo }: { repo: HubRepoInfo }) {
  const licence = licenceOf(repo.cardData, repo.tags);
  const stats: [string, string | undefined, string?][] = [
    ['Author', repo.author],
    ['Licence', licence, 'repo-licence'],
    ['SDK', repo.sdk, 'space-sdk'],
    ['Status', repo.runtimeStage?.toLowerCase().replace(/_/g, ' '), 'space-stage'],
    ['Downloads', repo.downloads !== undefined ? fmtCount.format(repo.downloads) : undefined],
    ['Likes', repo.likes !== undefined ? fmtCount.format(repo.likes) : undefined, 'repo-likes'],
    ['Files', repo.fileCount !== undefined ? repo.fileCount.toLocaleString('en') : undefined],
    ['Updated', repo.lastModified ? formatAge(repo.lastModified) : undefined],
  ];
  return (
    <div className="card cat-stats" data-testid="repo-stats">
      {stats
        .filter(([, v]) => v !== undefined)
        .map(([label, v, testid]) => (
          <div key={label} className="cat-stat">
            <span className="cat-stat-label">{label}</span>
            <span className="cat-stat-value" data-testid={testid}>
              {v}
            </span>
          </div>
        ))}
    </div>
  );
}

/** The Hub's tags, grouped as huggingface.co shows them beside a dataset (tasks, modalities, size…). */
function Tags({ tags }: { tags: string[] }) {
  const groups = groupRepoTags(tags);
  if (!groups.length) return null;
  return (
    <dl className="card cat-facts repo-facts repo-tags" data-testid="repo-tags">
      {groups.map((g) => (
        <div key={g.key} className="repo-field" data-group={g.key}>
          <dt>{g.label}</dt>
          <dd>
            {g.values.map((v) => (
              <span key={v} className="badge">
                {v}
              </span>
            ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A dataset or a Space: the task data's facts, and the Hub's details, card and files when allowed or cached. */
export function ItemPage({
  kind,
  id,
  item,
  tasks,
}: {
  kind: Exclude<HubKind, 'models'>;
  id: string;
  item?: CatalogueItem;
  tasks: Map<string, CatalogueTask>;
}) {
  const { repo: repoKind, page, nounOne: noun, one } = hubKindInfo[kind];
  const endpoint = useHubEndpoint();
  const update = useSettings((s) => s.update);
  const { live, reload } = useHubRepo(repoKind, id);
  const hubPage = `${endpoint.replace(/\/+$/, '')}/${repoWebPath(repoKind, id)}`;
  const repo = live.state === 'ok' ? live.repo : undefined;

  return (
    <div data-testid={`${page}-view`}>
      <header className="cat-title">
        <h1 className="mono cat-h1-id">{id}</h1>
        <span className="badge">{one}</span>
        {live.state === 'ok' && <Freshness f={live.freshness} />}
        {item && <span className="badge">in the task data</span>}
        <span className="cat-spacer" />
        <ExternalLink href={hubPage}>Open on Hugging Face</ExternalLink>
      </header>
      {repo && <Stats repo={repo} />}
      {repo && <Tags tags={repo.tags} />}
      {repo && repoKind === 'dataset' && <DatasetUse key={id} id={id} />}
      {repo && repoKind === 'space' && <SpaceUse key={id} id={id} sdk={repo.sdk} />}
      {item && (
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
        </section>
      )}
      {repo?.gated && (
        <div className="card cat-note repo-gated" role="note" data-testid="repo-gated">
          <strong>Gated {noun}.</strong> Its files need you to accept its terms on the Hub and a Hugging Face token in
          Settings. <ExternalLink href={hubPage}>Accept the terms on the Hub</ExternalLink>
        </div>
      )}
      {repo?.models && repo.models.length > 0 && (
        <section className="card cat-section" data-testid="space-models">
          <h2>Models used</h2>
          <ul className="cat-chips">
            {repo.models.slice(0, 30).map((m) => (
              <li key={m}>
                <a className="mono small" href={catalogueHref('model', m)}>
                  {m}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {live.state === 'loading' && <Loading label={`Loading the ${noun} from the Hub…`} />}
      {live.state === 'off' &&
        (item ? (
          <div className="cat-redirect" role="note">
            The card, files and figures of this {noun} come from the Hub.{' '}
            <button className="btn btn-ghost" onClick={() => void update({ hubAccess: 'online' })}>
              Turn on Search the Hub
            </button>
          </div>
        ) : (
          <Empty
            title="Not in the embedded catalogue"
            action={
              <button className="btn btn-primary" onClick={() => void update({ hubAccess: 'online' })}>
                Turn on Search the Hub
              </button>
            }
          >
            The task data does not mention this {noun} and it has not been seen on the Hub before.{' '}
            <ExternalLink href={hubPage}>Open it on the Hub</ExternalLink>
          </Empty>
        ))}
      {live.state === 'error' && (
        <div className="card cat-inline-error" role="alert" data-testid="repo-error">
          <strong>Live details unavailable.</strong> {live.error.message}{' '}
          <button className="btn btn-ghost" onClick={reload}>
            Try again
          </button>
        </div>
      )}
      {repo && <RepoTabs kind={repoKind} id={id} cardData={repo.cardData} />}
    </div>
  );
}
