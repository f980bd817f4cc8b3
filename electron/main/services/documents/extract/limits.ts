/**
 * How much of a document HubDesk reads. A hostile file (a zip bomb, a PDF listing one page 200,000 times, a table of
 * 50 million cells, JSON nested 100,000 deep) is refused in words by one of these, before it costs the app its memory
 * or its minutes; the rest of the base goes on. Tests pass lower ones so their inputs stay small.
 */
export interface ExtractLimits {
  /** The file's size on disk. */
  maxBytes: number;
  /** A ZIP-based file (DOCX) unpacked: all its entries together, as the central directory declares them. */
  maxUnpackedBytes: number;
  /** One ZIP entry's unpacked size over its packed size, for an entry larger than `ratioFromBytes` unpacked. */
  maxRatio: number;
  ratioFromBytes: number;
  /** A PDF's pages, as its page tree counts them (checked before any page is read). */
  maxPages: number;
  /** A CSV's cells, as a table (rows × its widest row). */
  maxCells: number;
  /** How deep a JSON document's objects and arrays nest. */
  maxDepth: number;
  /** The text a document yields. */
  maxTextChars: number;
}

const DEFAULT_LIMITS: ExtractLimits = {
  maxBytes: 200 * 1024 * 1024,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxRatio: 100,
  ratioFromBytes: 10 * 1024 * 1024,
  maxPages: 2_000,
  maxCells: 2_000_000,
  maxDepth: 512,
  // About 12 million tokens: past that, embedding alone would take hours.
  maxTextChars: 50_000_000,
};

export const withDefaults = (limits: Partial<ExtractLimits> = {}): ExtractLimits => ({ ...DEFAULT_LIMITS, ...limits });

export const mb = (n: number) => `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;
export const count = (n: number) => n.toLocaleString('en');
