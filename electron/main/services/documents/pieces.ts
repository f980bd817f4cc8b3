import { estimateTokens, sliceEndForTokens } from './tokens';

/**
 * The smallest stretches of a section the chunker packs, never cut further: a whole block (paragraph, code block,
 * table) when it fits a chunk, else its sentences (prose) or lines (code, tables), and a sentence or line that is
 * still too long in estimated-token slices.
 */
export interface Piece {
  start: number;
  end: number;
  tokens: number;
  /** A table row after the header: the header's range, repeated before a chunk that starts inside the table. */
  header?: { start: number; end: number };
}

type BlockKind = 'prose' | 'code' | 'table';
interface Block {
  kind: BlockKind;
  start: number;
  end: number;
}

const FENCE = /^\s{0,3}(```|~~~)/;
const TABLE_ROW = /^\s*\|/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** A section's pieces, for chunks of at most `target` tokens. `allCode`: the whole text is code (a code file, JSON). */
export function sectionPieces(text: string, from: number, to: number, target: number, allCode: boolean): Piece[] {
  const out: Piece[] = [];
  for (const b of blocks(text, from, to, allCode)) {
    const tokens = estimateTokens(text.slice(b.start, b.end));
    if (tokens <= target) out.push({ start: b.start, end: b.end, tokens });
    else if (b.kind === 'prose') for (const [s, e] of sentences(text, b.start, b.end)) split(text, s, e, target, out);
    else {
      const rows = lines(text, b.start, b.end);
      const headerRows = b.kind === 'table' ? (rows.length > 1 && TABLE_RULE.test(text.slice(...rows[1])) ? 2 : 1) : 0;
      const header = headerRows ? { start: rows[0][0], end: rows[headerRows - 1][1] } : undefined;
      rows.forEach(([s, e], i) => {
        const at = out.length;
        split(text, s, e, target, out);
        if (header && i >= headerRows) for (let k = at; k < out.length; k++) out[k].header = header;
      });
    }
  }
  return out;
}

/** Paragraphs (split by blank lines), fenced code blocks and `|` tables, each trimmed of surrounding blank lines. */
function blocks(text: string, from: number, to: number, allCode: boolean): Block[] {
  const out: Block[] = [];
  let cur: Block | null = null;
  let fence: string | null = null;
  for (const [s, e] of lines(text, from, to)) {
    const line = text.slice(s, e);
    if (fence !== null) {
      cur!.end = e;
      if (FENCE.exec(line)?.[1] === fence) {
        fence = null;
        cur = null;
      }
      continue;
    }
    const f = allCode ? null : FENCE.exec(line);
    const kind: BlockKind = allCode ? 'code' : f ? 'code' : TABLE_ROW.test(line) ? 'table' : 'prose';
    if (!line.trim()) {
      cur = null;
    } else if (f || !cur || cur.kind !== kind) {
      cur = { kind, start: s, end: e };
      out.push(cur);
      if (f) fence = f[1];
    } else cur.end = e;
  }
  return out;
}

/** Line ranges (without their line break) in [from, to). */
function lines(text: string, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  for (let pos = from; pos < to;) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 || nl >= to ? to : nl;
    out.push([pos, end > pos && text[end - 1] === '\r' ? end - 1 : end]);
    pos = end + 1;
  }
  return out;
}

/** Sentence ranges: ends after . ! ? (and closing quotes) before whitespace, after 。！？, and at line breaks. */
function sentences(text: string, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  const re = /[.!?]["'”’)\]]*(?=\s)|[。！？]["'”’）」』]*|\n/g;
  re.lastIndex = from;
  let start = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    const end = Math.min(to, m.index + m[0].length);
    if (text.slice(start, end).trim()) out.push(trim(text, start, end));
    start = end;
  }
  if (text.slice(start, to).trim()) out.push(trim(text, start, to));
  return out;
}

function trim(text: string, s: number, e: number): [number, number] {
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return [s, e];
}

/** [s, e) as one piece, or in slices of at most `target` tokens when it is longer. */
function split(text: string, s: number, e: number, target: number, out: Piece[]): void {
  while (s < e) {
    const end = sliceEndForTokens(text, s, e, target);
    const [ps, pe] = trim(text, s, end);
    if (pe > ps) out.push({ start: ps, end: pe, tokens: estimateTokens(text.slice(ps, pe)) });
    s = end;
  }
}
