import type { DocSection } from './types';

const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;

/**
 * Sections of Markdown-like text by its ATX headings (`#` … `######`, outside code fences): each runs from its
 * heading line to the next heading, under the path of headings above it. Text before the first heading is a
 * section with no headings; a heading with nothing under it but the next heading gets no section of its own.
 */
export function markdownSections(
  text: string,
  base: Omit<DocSection, 'start' | 'end' | 'headings'> = {},
): DocSection[] {
  const out: DocSection[] = [];
  const path: { level: number; title: string }[] = [];
  let start = 0;
  let headings: string[] = [];
  let fence: string | null = null;
  const close = (end: number) => {
    if (text.slice(start, end).trim() && !isHeadingOnly(text.slice(start, end)))
      out.push({ ...base, headings, start, end });
  };
  for (let pos = 0; pos < text.length;) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl + 1;
    const line = text.slice(pos, end).replace(/\r?\n$/, '');
    const f = FENCE.exec(line);
    if (f) fence = fence === null ? f[1] : fence === f[1] ? null : fence;
    const h = fence === null ? HEADING.exec(line) : null;
    if (h) {
      close(pos);
      const level = h[1].length;
      while (path.length && path[path.length - 1].level >= level) path.pop();
      path.push({ level, title: h[2].replace(/\\#/g, '#') });
      headings = path.map((p) => p.title);
      start = pos;
    }
    pos = end;
  }
  close(text.length);
  return out;
}

function isHeadingOnly(slice: string): boolean {
  const lines = slice.split('\n').filter((l) => l.trim());
  return lines.length === 1 && HEADING.test(lines[0]);
}
