import { Parser } from 'htmlparser2';
import { markdownSections } from '../sections';
import type { DocKind, ExtractedDoc } from '../types';

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'iframe', 'object', 'canvas']);
const BLOCK = new Set([
  ...['p', 'div', 'section', 'article', 'header', 'footer', 'main', 'nav', 'aside', 'blockquote', 'address'],
  ...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'form', 'fieldset', 'details', 'summary', 'hr'],
]);

/**
 * The visible text of an HTML page as Markdown-like text: h1–h6 as `#` headings (and sections), `pre` as code
 * fences, tables as `|` rows (the first row the header), list items as `- `; script, style and the head dropped.
 */
export function htmlDoc(html: string, kind: Extract<DocKind, 'html' | 'docx'> = 'html'): ExtractedDoc {
  const out: string[] = [];
  let para = '';
  let hidden = 0;
  let pre: string | null = null;
  let table: { rows: string[][]; depth: number } | null = null;
  let cellText: string | null = null;
  const flush = () => {
    const t = para
      .replace(/[ \t]+/g, ' ')
      .replace(/ ?\n ?/g, '\n')
      .trim();
    if (t) out.push(t.replace(/^(#|```|~~~|\|)/gm, '\\$1'));
    para = '';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) return void hidden++;
        if (hidden) return;
        if (table) {
          if (name === 'table') table.depth++;
          else if (table.depth === 1 && name === 'tr') table.rows.push([]);
          else if (table.depth === 1 && (name === 'td' || name === 'th')) cellText = '';
          return;
        }
        if (name === 'table') return (flush(), void (table = { rows: [], depth: 1 }));
        if (name === 'pre') return (flush(), void (pre = ''));
        if (name === 'br') para += '\n';
        else if (BLOCK.has(name) || /^h[1-6]$/.test(name)) flush();
        if (name === 'li') para = '- ';
      },
      ontext(text) {
        if (hidden) return;
        if (cellText !== null) cellText += text;
        else if (table) return;
        else if (pre !== null) pre += text;
        else para += text.replace(/\s+/g, ' ');
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) return void (hidden = Math.max(0, hidden - 1));
        if (hidden) return;
        if (table) {
          if (name === 'table' && --table.depth === 0) {
            out.push(markdownTable(table.rows));
            table = null;
          } else if (table.depth === 1 && (name === 'td' || name === 'th') && cellText !== null) {
            table.rows[table.rows.length - 1]?.push(cellText.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|'));
            cellText = null;
          }
          return;
        }
        if (name === 'pre' && pre !== null) {
          if (pre.trim()) out.push(`\`\`\`\n${pre.replace(/^\n|\s+$/g, '')}\n\`\`\``);
          pre = null;
        } else if (/^h[1-6]$/.test(name)) {
          const title = para.replace(/\s+/g, ' ').trim();
          if (title) out.push(`${'#'.repeat(Number(name[1]))} ${title}`);
          para = '';
        } else if (BLOCK.has(name)) flush();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  const text = out.filter((b) => b).join('\n\n');
  return { kind, text, sections: markdownSections(text) };
}

function markdownTable(rows: string[][]): string {
  const body = rows.filter((r) => r.some((c) => c));
  if (!body.length) return '';
  const width = Math.max(...body.map((r) => r.length));
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
  return [line(body[0]), `|${' --- |'.repeat(width)}`, ...body.slice(1).map(line)].join('\n');
}
