/**
 * The three kinds of Hub repo, named once. The Hub's API lists them under their plural (`/api/models`, `/api/datasets`,
 * `/api/spaces`): that is a kind's name in the app. Every other spelling (the repo calls' singular, the catalogue page,
 * the words on screen) comes from `hubKindInfo`. Apart from the contract (zod) so the renderer's first screen can
 * name them without loading zod.
 */
export const hubKinds = ['models', 'datasets', 'spaces'] as const;
export type HubKind = (typeof hubKinds)[number];

/** A kind in the singular, as the repo calls take it (`hub.readme`, `hub.tree`, `hub.repo`). */
export const repoKinds = ['model', 'dataset', 'space'] as const;
export type RepoKind = (typeof repoKinds)[number];

/** The catalogue's page for one repo, `#/catalogue/<page>/<id>`: the embedded task data calls Spaces "apps". */
export type HubPageKind = 'model' | 'dataset' | 'app';

interface HubKindInfo {
  repo: RepoKind;
  page: HubPageKind;
  /** A tab or a heading. */
  label: string;
  /** In a sentence ("No Spaces for this search"). */
  noun: string;
  /** One of them in a sentence ("the Space search"). */
  nounOne: string;
  /** One of them, as a badge. */
  one: string;
}

export const hubKindInfo = {
  models: { repo: 'model', page: 'model', label: 'Models', noun: 'models', nounOne: 'model', one: 'Model' },
  datasets: {
    repo: 'dataset',
    page: 'dataset',
    label: 'Datasets',
    noun: 'datasets',
    nounOne: 'dataset',
    one: 'Dataset',
  },
  spaces: { repo: 'space', page: 'app', label: 'Spaces', noun: 'Spaces', nounOne: 'Space', one: 'Space' },
} as const satisfies Record<HubKind, HubKindInfo>;

const byRepo = new Map<RepoKind, HubKind>(hubKinds.map((k) => [hubKindInfo[k].repo, k]));
const byPage = new Map<HubPageKind, HubKind>(hubKinds.map((k) => [hubKindInfo[k].page, k]));

export const hubKindOfRepo = (kind: RepoKind): HubKind => byRepo.get(kind)!;
export const hubKindOfPage = (page: HubPageKind): HubKind => byPage.get(page)!;

/** A repo's path on the Hub's site (its page, and under it its files): models at the root, the others under their kind. */
export function hubWebPath(kind: HubKind, id: string): string {
  const path = id.split('/').map(encodeURIComponent).join('/');
  return kind === 'models' ? path : `${kind}/${path}`;
}
