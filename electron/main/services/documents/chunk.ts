import { sectionPieces, type Piece } from './pieces';
import { estimateTokens, sliceStartForTokens } from './tokens';
import type { DocChunk, DocSection, ExtractedDoc } from './types';

export interface ChunkOptions {
  /** The most estimated tokens a chunk holds (a repeated table header and the overlap included). */
  targetTokens: number;
  /** How much of the previous chunk of the same section each chunk starts with, at most. */
  overlapTokens: number;
}

/**
 * Chunks a document for embedding and retrieval: within each section (never across headings or pages), whole
 * paragraphs, code blocks and tables while they fit, else sentences or lines (a table's header row repeated before
 * each part), packed up to `targetTokens`. Each chunk after the first of its section starts with up to
 * `overlapTokens` of the one before, from a sentence or line start, so a fact cut at a boundary is whole in one.
 */
export function chunk(doc: ExtractedDoc, opts: ChunkOptions): DocChunk[] {
  const target = Math.max(8, Math.floor(opts.targetTokens));
  const overlap = Math.max(0, Math.min(Math.floor(opts.overlapTokens), Math.floor(target / 2)));
  const allCode = doc.kind === 'code' || doc.kind === 'json';
  return doc.sections.flatMap((s) =>
    sectionChunks(doc.text, s, sectionPieces(doc.text, s.start, s.end, target, allCode), target, overlap, allCode),
  );
}

function sectionChunks(
  text: string,
  section: DocSection,
  pieces: Piece[],
  target: number,
  overlap: number,
  allCode: boolean,
): DocChunk[] {
  const out: DocChunk[] = [];
  let prev: { start: number; end: number } | null = null;
  for (let i = 0; i < pieces.length;) {
    const first = pieces[i];
    const header =
      first.header && estimateTokens(text.slice(first.header.start, first.header.end)) <= target / 2
        ? first.header
        : undefined;
    const prefix = header ? `${text.slice(header.start, header.end)}\n` : '';
    const room = target - (prefix ? estimateTokens(prefix) : 0);
    let start = first.start;
    if (prev && overlap > 0) {
      const budget = Math.min(overlap, room - first.tokens);
      if (budget > 0)
        start = overlapStart(text, prev.start, prev.end, budget, allCode || !!first.header, header) ?? start;
    }
    let end = first.end;
    for (i++; i < pieces.length && estimateTokens(text.slice(start, pieces[i].end)) <= room; i++) end = pieces[i].end;
    const body = text.slice(start, end);
    const full = header && start > header.start ? prefix + body : body;
    out.push({
      text: full,
      headings: section.headings,
      ...(section.page ? { page: section.page } : {}),
      start,
      end,
      tokens: estimateTokens(full),
    });
    prev = { start, end };
  }
  return out;
}

/**
 * Where the overlap taken from the previous chunk [from, to) starts: the earliest sentence or line start whose tail
 * fits `budget` tokens, else (prose only, not code) the earliest word start that does, else nowhere (undefined).
 */
function overlapStart(
  text: string,
  from: number,
  to: number,
  budget: number,
  code: boolean,
  header?: { start: number; end: number },
): number | undefined {
  // Inside a table the overlap never takes the header rows: they are repeated anyway.
  const floor = header && header.end > from && header.end < to ? header.end + 1 : from;
  const first = sliceStartForTokens(text, floor, to, budget);
  let k = first;
  while (k > floor && (text[k - 1] === ' ' || text[k - 1] === '\t')) k--;
  let lineStart = k === floor || text[k - 1] === '\n';
  let word: number | undefined;
  for (let j = first; j < to; j++) {
    const c = text[j];
    if (/\s/.test(c)) {
      if (c === '\n') lineStart = true;
      continue;
    }
    if (
      lineStart ||
      (!code && (/[。！？]/.test(text[j - 1]) || SENTENCE_END.test(text.slice(Math.max(floor, j - 6), j))))
    )
      return j;
    if (!code && word === undefined && /\s/.test(text[j - 1])) word = j;
    lineStart = false;
  }
  return word;
}

const SENTENCE_END = /[.!?]["'”’)\]]*\s+$/;
