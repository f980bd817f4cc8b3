import { z } from 'zod';

// What the Hub calls (hub-search.ts, hub-repo.ts) share.

/** Where an answer came from: fresh from the Hub, revalidated (304), or the disk cache without the network. */
export const hubFreshnessSchema = z.object({
  source: z.enum(['network', 'revalidated', 'cache']),
  /** When the cached copy was fetched (ISO). */
  fetchedAt: z.string(),
  /** Why the cache was used instead of the network, when it was. */
  reason: z.string().optional(),
});
export type HubFreshness = z.infer<typeof hubFreshnessSchema>;

export const repoIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/, 'a model id such as openai/whisper-large-v3');
