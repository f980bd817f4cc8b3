import { z } from 'zod';
import { call } from './define';
import { hubFreshnessSchema } from './hub';

/** One row of a Hub model search (`GET /api/models`). */
export const hubModelSummarySchema = z.object({
  id: z.string(),
  pipeline_tag: z.string().optional(),
  library_name: z.string().optional(),
  tags: z.array(z.string()),
  downloads: z.number().optional(),
  likes: z.number().optional(),
  lastModified: z.string().optional(),
  private: z.boolean().optional(),
  gated: z.union([z.boolean(), z.string()]).optional(),
});
export type HubModelSummary = z.infer<typeof hubModelSummarySchema>;

export const hubSearchInputSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    pipeline_tag: z.string().trim().max(80).optional(),
    library: z.string().trim().max(80).optional(),
    limit: z.number().int().min(1).max(100).optional(),
    /** The opaque cursor of the next page, as `hub.search` returned it. */
    cursor: z.string().max(2000).optional(),
  })
  .strict();

export const hubSearchCalls = {
  'hub.search': call({
    input: hubSearchInputSchema,
    output: z.object({
      models: z.array(hubModelSummarySchema),
      /** Cursor for the next page (from the `Link` header), absent on the last page. */
      next: z.string().optional(),
      freshness: hubFreshnessSchema,
    }),
  }),
};
