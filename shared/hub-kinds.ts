/**
 * What the Hub lists: `/api/models`, `/api/datasets`, `/api/spaces`. Apart from the contract (zod) so the renderer's
 * first screen can name them without loading zod.
 */
export const hubKinds = ['models', 'datasets', 'spaces'] as const;
export type HubKind = (typeof hubKinds)[number];
