import remend from 'remend';

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * A table whose header row has arrived but not yet its separator row would show as a line of raw pipes, then jump
 * into a table: give it the separator it is about to get.
 */
function healTableHeader(block: string): string {
  const lines = block.replace(/\n+$/, '').split('\n');
  if (lines.length !== 1 || !TABLE_ROW.test(lines[0]) || TABLE_SEPARATOR.test(lines[0])) return block;
  const cells = lines[0]
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|').length;
  return `${lines[0]}\n|${' --- |'.repeat(cells)}`;
}

/**
 * The open tail of a streaming reply, closed for display: unfinished bold/italic, inline code, strikethrough, links
 * (text only until the URL is complete) and table headers render as they will once finished, so no raw `**` or
 * half-link flashes. Code fences need nothing: marked renders an unclosed fence as code to the end.
 */
export function healTail(block: string): string {
  return healTableHeader(remend(block, { linkMode: 'text-only', images: true }));
}
