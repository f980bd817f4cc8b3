import { chunk } from '../chunk';
import type { DocChunk, DocKind } from '../types';
import { extract } from './extract';
import type { ExtractLimits } from './limits';

/** Chunk size and overlap, in estimated tokens: passages small enough to cite, big enough to hold a fact whole. */
const CHUNKING = { targetTokens: 300, overlapTokens: 40 };

/** A document as the index stores it: what it is, and its passages. */
export interface ReadDocument {
  kind: DocKind;
  pages?: number;
  chunks: DocChunk[];
}

/**
 * Extracts and chunks a file: the whole CPU-bound part of indexing one document, which the extraction worker runs
 * (chunking 40 million characters takes about a second; main only stores the result).
 */
export async function readDocument(file: string, limits: Partial<ExtractLimits> = {}): Promise<ReadDocument> {
  const doc = await extract(file, limits);
  return { kind: doc.kind, pages: doc.pages, chunks: chunk(doc, CHUNKING) };
}
