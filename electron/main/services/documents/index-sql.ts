/** Pure helpers of the index (no database): the FTS5 query, ids, rows to the contract's shapes. */
import { randomBytes } from 'node:crypto';

/** The most words of a question the BM25 half asks for (a pasted page is not a query worth thousands of terms). */
const MAX_TERMS = 64;

/** The words of a question (lower case, once each, at most MAX_TERMS): punctuation and FTS5 syntax are dropped. */
export const queryWords = (text: string): string[] =>
  [...new Set(text.toLowerCase().match(/[\p{L}\p{N}\p{M}_]+/gu) ?? [])].slice(0, MAX_TERMS);

/**
 * Words as a safe FTS5 expression: each quoted, OR'd. Punctuation and FTS5 syntax (`"`, `*`, `NEAR(`, `-`, `AND`,
 * column filters) never reach it as operators (see queryWords), so no question can make MATCH throw.
 */
export const ftsQuery = (words: string[]): string => words.map((w) => `"${w}"`).join(' OR ');

export const json = (a: unknown[]) => JSON.stringify(a);
/** Matches any of a JSON array bound at `param` (one statement for any number of ids). */
export const IN = (param = '?') => `IN (SELECT value FROM json_each(${param}))`;

export const newDocId = (prefix: 'b' | 's' | 'd') =>
  `${prefix}_${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

/** A chunk's heading path as a citation shows it. */
export const headingPath = (headingsJson: string): string | undefined => {
  const h = JSON.parse(headingsJson) as string[];
  return h.length ? h.join(' › ') : undefined;
};

export interface ChunkSpan {
  text: string;
  start: number;
  end: number;
}

/**
 * A document's text rebuilt from its chunks in order: each chunk's passage is the last `end - start` characters of
 * its text (a split table's repeated header comes before it), and the overlap with the chunk before is left out.
 * Stretches the chunks do not cover (between sections) become a blank line.
 */
export function joinChunks(chunks: ChunkSpan[]): string {
  let out = '';
  let reached = -1;
  for (const c of chunks) {
    const body = c.text.slice(Math.max(0, c.text.length - (c.end - c.start)));
    if (c.start >= reached) {
      if (out && c.start > reached) out += '\n\n';
      out += body;
    } else if (c.end > reached) out += body.slice(reached - c.start);
    reached = Math.max(reached, c.end);
  }
  return out;
}
