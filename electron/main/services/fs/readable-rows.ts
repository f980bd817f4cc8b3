import type { z } from 'zod';
import type { Logger } from '../log';

/**
 * The rows of a saved list (keyed by index or name) that pass `schema`, each checked on its own: a row damaged by
 * hand, by an older version or by a bad answer once saved is logged with why and left out; the others are kept.
 */
export function keepReadable<T>(rows: [string, unknown][], schema: z.ZodType<T>, log: Logger, what: string): T[] {
  const out: T[] = [];
  for (const [key, row] of rows) {
    const parsed = schema.safeParse(row);
    if (parsed.success) out.push(parsed.data);
    else log.warn(`${what} ${key} unreadable; left out`, { reason: parsed.error.issues.map(issue).join('; ') });
  }
  return out;
}

const issue = (i: z.ZodIssue) => `${i.path.join('.') || '(row)'}: ${i.message}`;
