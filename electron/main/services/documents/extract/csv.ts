import type { ExtractedDoc } from '../types';
import { extractError } from './errors';
import { count, type ExtractLimits } from './limits';

/**
 * A CSV or TSV file as a Markdown table (its first row the header), so the chunker keeps the header with every part
 * of it. Quoted fields (with doubled quotes, separators and line breaks inside) follow RFC 4180. Its cells are
 * counted while it is parsed (rows × the widest row, as the table pads every row): a table past `maxCells` is refused
 * before it is built.
 */
export function csvDoc(
  file: string,
  text: string,
  tab: boolean,
  limits: Pick<ExtractLimits, 'maxCells'>,
): ExtractedDoc {
  const rows = parseCsv(file, text.replace(/^\uFEFF/, ''), tab ? '\t' : sniffSeparator(text), limits.maxCells);
  if (!rows.length) return { kind: 'csv', text: '', sections: [] };
  let width = 0;
  for (const r of rows) width = Math.max(width, r.length);
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => cell(r[i] ?? '')).join(' | ')} |`;
  const out = [line(rows[0]), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
  return { kind: 'csv', text: out, sections: [{ headings: [], start: 0, end: out.length }] };
}

function cell(v: string): string {
  return v.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

/** Comma unless the first line has more semicolons or tabs (European spreadsheets export `;`). */
function sniffSeparator(text: string): string {
  // The first line only, and at most 64 KB of it: a 100 MB line is not split three times to count its separators.
  const first = text.slice(0, Math.min(text.indexOf('\n') >>> 0, 65_536));
  const count = (c: string) => first.split(c).length;
  const best = [',', ';', '\t'].sort((a, b) => count(b) - count(a))[0];
  return count(best) > 1 ? best : ',';
}

function parseCsv(file: string, text: string, sep: string, maxCells: number): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let width = 0;
  const tooMany = () =>
    extractError(
      file,
      'too_large',
      `This table has more than ${count(maxCells)} cells: HubDesk does not index it. Split it into smaller files.`,
    );
  const push = () => {
    row.push(field);
    field = '';
    if (row.length > width) width = row.length;
    if (width * (rows.length + 1) > maxCells) throw tooMany();
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) push();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      push();
      if (row.some((f) => f.trim())) rows.push(row);
      row = [];
    } else field += c;
  }
  push();
  if (row.some((f) => f.trim())) rows.push(row);
  return rows;
}
