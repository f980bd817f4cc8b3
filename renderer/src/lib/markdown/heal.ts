import remend from 'remend';

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

const PARTIAL_SEPARATOR = /^\s*\|[\s|:-]*$/;

/**
 * A table being typed would show as lines of raw pipes, then jump into a table. Its header row (finished or not)
 * is shown as the header it will be, and a separator row still being typed as the one it will be.
 */
function healTableHeader(block: string): string {
  const lines = block.replace(/\n+$/, '').split('\n');
  if (lines.length > 2 || !/^\s*\|/.test(lines[0])) return block;
  if (lines.length === 2 && !PARTIAL_SEPARATOR.test(lines[1])) return block;
  if (TABLE_SEPARATOR.test(lines[0])) return block;
  const header = TABLE_ROW.test(lines[0]) ? lines[0] : `${lines[0].trimEnd()} |`;
  const cells = header
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|').length;
  return `${header}\n|${' --- |'.repeat(cells)}`;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/**
 * What the tail ends with that cannot be shown yet without showing syntax: a run of markers with nothing after it
 * (`The *`, `uses \``, the first backticks of a fence), the first characters of a code block's closing fence, and
 * trailing spaces (an emphasis closed after a space is not one). They are held back until the next token says what
 * they are; a link's `[text]` waiting for its `(url)` shows as its text.
 */
function holdBack(block: string): string {
  const lines = block.split('\n');
  const fence = FENCE_OPEN.exec(lines[0] ?? '');
  if (fence) {
    // Inside an open code block everything is literal, except a closing fence being typed on the last line.
    const last = lines.at(-1)!;
    const ch = fence[1][0] === '`' ? '`' : '~';
    if (lines.length > 1 && last.trim() && [...last.trim()].every((c) => c === ch)) lines.pop();
    return lines.join('\n');
  }
  return block
    .replace(/\s+$/, '')
    .replace(/(^|[\s(])[*_~`]+$/, '$1')
    .replace(/\[([^\]\n]*)\]$/, '$1')
    .replace(/\s+$/, '');
}

/**
 * The open tail of a streaming reply, closed for display: unfinished bold/italic, inline code, strikethrough, links
 * (text only until the URL is complete) and table headers render as they will once finished, so no raw `**` or
 * half-link flashes. Code fences need nothing: marked renders an unclosed fence as code to the end.
 */
export function healTail(block: string): string {
  return healTableHeader(remend(holdBack(block), { linkMode: 'text-only', images: true }));
}
