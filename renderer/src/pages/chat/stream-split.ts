/**
 * Where the text can be split so that everything before renders as finished Markdown: the end of the last
 * blank line that is outside a code fence. Only the part after it changes while a reply streams.
 */
export function stableBoundary(text: string, from: number): number {
  let boundary = from;
  let inFence = false;
  let fence = '';
  let i = from;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    if (nl < 0) break;
    const line = text.slice(i, nl);
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (!inFence) {
        inFence = true;
        fence = m[1][0];
      } else if (m[1][0] === fence && line.trim().replace(/[`~]/g, '') === '') inFence = false;
    } else if (!inFence && line.trim() === '' && i > from) boundary = nl + 1;
    i = nl + 1;
  }
  return boundary;
}
