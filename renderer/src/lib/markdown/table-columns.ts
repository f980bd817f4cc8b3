import type { Tokens } from 'marked';

/** A column's share is its widest cell, in characters, between these: a longer cell wraps. */
const MIN_CHARS = 3;
const MAX_CHARS = 40;
/** A character of the chat's 14px text, and a cell's padding and border (chat.css), in px. */
const CHAR_PX = 8.5;
const CELL_PX = 18;

/** A cell's width in characters as read: emphasis markers count for nothing, inline code a little more (monospace). */
function cellChars(text: string): number {
  return text
    .split('`')
    .reduce((n, part, i) => n + (i % 2 ? part.length * 1.25 + 1.5 : part.replace(/[*_~]/g, '').length), 0);
}

/** Header cells are bold: wider per character, and a header word is never broken mid-word ("mode|l"). */
const BOLD = 1.2;

/** Each column's widest cell (in characters), over the header and `rows`, kept in `into` (one entry per column). */
export function widestCells(header: Tokens.TableCell[], rows: Tokens.TableCell[][], into: number[] = []): number[] {
  header.forEach((cell, j) => {
    into[j] = Math.max(into[j] ?? 0, cellChars(cell.text) * BOLD);
    for (const row of rows) into[j] = Math.max(into[j], cellChars(row[j]?.text ?? ''));
  });
  return into;
}

/**
 * A table's opening markup, sized from its widest cells: `<table width>` and a `<colgroup>` in px. Chat tables are
 * laid out fixed (chat.css): a streaming table's columns then hold still as rows arrive — with automatic layout any
 * row could widen a column, and Chromium laid out and repainted the whole table each frame — and a finished table is
 * laid out from this alone. A table wider than the message scrolls sideways in its block. Attributes, not styles:
 * the sanitizer removes styles from the model's markup.
 */
export function tableOpen(widest: number[]): string {
  const cols = widest.map((n) => Math.round(Math.min(MAX_CHARS, Math.max(MIN_CHARS, n)) * CHAR_PX + CELL_PX));
  const width = cols.reduce((a, b) => a + b, 0);
  return `<table width="${width}">\n<colgroup>${cols.map((c) => `<col width="${c}">`).join('')}</colgroup>`;
}
