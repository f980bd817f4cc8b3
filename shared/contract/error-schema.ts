import { z } from 'zod';
import { errorCodes, type AppErrorShape } from '../errors';

/** The AppErrorShape as a schema, for outputs that carry an error as data (e.g. a status check). */
export const appErrorSchema: z.ZodType<AppErrorShape> = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  status: z.number().int().optional(),
  details: z.unknown().optional(),
});
