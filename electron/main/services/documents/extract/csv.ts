import type { ExtractedDoc } from '../types';

/**
 * A CSV or TSV file as a Markdown table (its first row the header), so the chunker keeps the header with every part
 * of it. Quoted fields (with doubled quotes, separators and line breaks inside) follow RFC 4180.
 */
export function csvDoc(text: string, tab: boolean): ExtractedDoc {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''), tab ? '\t' : sniffSeparator(text));
  if (!rows.length) return { kind: 'csv', text: '', sections: [] };
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => cell(r[i] ?? '')).join(' | ')} |`;
  const out = [line(rows[0]), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
  return { kind: 'csv', text: out, sections: [{ headings: [], start: 0, end: out.length }] };
}

function cell(v: string): string {
  return v.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

/** Comma unless the first line has more semicolons or tabs (European spreadsheets export `;`). */
function sniffSeparator(text: string): string {
  const first = text.slice(0, text.indexOf('\n') >>> 0);
  const count = (c: string) => first.split(c).length;
  const best = [',', ';', '\t'].sort((a, b) => count(b) - count(a))[0];
  return count(best) > 1 ? best : ',';
}

function parseCsv(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f.trim())) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.trim())) rows.push(row);
  return rows;
}
