import { Lexer, type Token, type Tokens } from 'marked';
import { renderBlock } from './render';
import { tableOpen, widestCells } from './table-columns';

/** Whether an open tail's tokens are one table (and blank lines). */
export function isTable(tokens: Token[]): boolean {
  const t = tokens.filter((x) => x.type !== 'space');
  return t.length === 1 && t[0].type === 'table';
}

const COLGROUP_END = '</colgroup>';
const TBODY = '<tbody>';
const TBODY_END = '</tbody>';
const TABLE_END = '</table>\n';

/** `source` lexed alone, if it is one table: its token. */
function tableToken(source: string): Tokens.Table | null {
  const tokens = Lexer.lex(source, { gfm: true });
  return isTable(tokens) ? (tokens.find((t) => t.type === 'table') as Tokens.Table) : null;
}

/**
 * A table while it streams. A row is rendered once when the next line starts, and its `<tr>` appended, never touched
 * again; only the row being written is replaced each frame. Without this, each frame rendered the whole table into
 * new nodes, and Chromium shaped the text of every cell and laid the table out afresh. marked renders each row's
 * cells on their own, so a row rendered under the table's header is the row the whole table renders. The columns'
 * widths (`tableOpen`) follow the finished rows, so the row being written moves no column. The finished table's
 * markup (`html`) is the same string as rendering it whole, and replaces nothing when it matches.
 */
export class StreamingTable {
  private rowsHtml = '';
  private liveHtml = '';
  private liveCells: Tokens.TableCell[] = [];
  private frozen = 0;
  /** The live row's nodes: its `<tr>` and the line break after it. */
  private live: ChildNode[] = [];
  private body?: HTMLElement;
  /** `<table>` and its `<colgroup>`, as the DOM holds them. */
  private open: string;

  private constructor(
    private readonly el: HTMLElement,
    /** The table's header and separator lines. */
    private readonly head: string,
    private readonly header: Tokens.TableCell[],
    /** The markup of its `<thead>`. */
    private readonly theadHtml: string,
    /** Each column's widest finished cell, in characters. */
    private readonly widest: number[],
  ) {
    this.open = tableOpen(widest);
    el.innerHTML = this.open + theadHtml + TABLE_END;
  }

  /** A view of `source` (a table: its header, separator and rows) in `el`; null when it renders otherwise. */
  static start(el: HTMLElement, source: string): StreamingTable | null {
    const lines = source.split('\n');
    if (lines.length < 3) return null;
    const head = `${lines[0]}\n${lines[1]}\n`;
    const token = tableToken(head);
    if (!token) return null;
    const html = renderBlock(head, true);
    const at = html.indexOf(COLGROUP_END) + COLGROUP_END.length;
    if (!html.startsWith('<table') || at < COLGROUP_END.length || !html.endsWith(TABLE_END) || html.includes(TBODY))
      return null;
    const thead = html.slice(at, -TABLE_END.length);
    const view = new StreamingTable(el, head, token.header, thead, widestCells(token.header, []));
    return view.update(source) ? view : null;
  }

  /** The table's markup as the DOM holds it. */
  get html(): string {
    const rows = this.rowsHtml + this.liveHtml;
    return this.open + this.theadHtml + (rows ? TBODY + rows + TBODY_END : '') + TABLE_END;
  }

  /** Ends the stream with the finished block's source: false when it is not this table grown. */
  finish(source: string): boolean {
    if (!this.update(source.trimEnd())) return false;
    // The last row is finished too: its cells count for the columns.
    this.rowsHtml += this.liveHtml;
    this.liveHtml = '';
    this.live = [];
    this.fitColumns([this.liveCells]);
    return true;
  }

  /** Shows `source`; false when it is not this table grown (the caller renders the block afresh). */
  update(source: string): boolean {
    if (!source.startsWith(this.head)) return false;
    const rows = source.slice(this.head.length).split('\n');
    // Every line but the last is a finished row (the healed tail drops a trailing newline: the last is the live one).
    const done: Tokens.TableCell[][] = [];
    for (; this.frozen < rows.length - 1; this.frozen++) {
      const row = this.row(rows[this.frozen]);
      if (!row) return false;
      this.insert(row.tr, true);
      done.push(row.cells);
    }
    if (done.length) this.fitColumns(done);
    const live = rows.at(-1)!;
    const row = live.trim() ? this.row(live) : { tr: '', cells: [] };
    if (!row) return false;
    this.liveCells = row.cells;
    if (row.tr !== this.liveHtml) {
      for (const n of this.live.splice(0)) n.remove();
      this.liveHtml = '';
      if (row.tr) this.insert(row.tr, false);
    }
    return true;
  }

  /** Widens the columns for finished rows' cells; the table changes only if a column's width did. */
  private fitColumns(rows: Tokens.TableCell[][]): void {
    const open = tableOpen(widestCells(this.header, rows, this.widest));
    if (open === this.open) return;
    this.open = open;
    const box = document.createElement('template');
    box.innerHTML = `${open}</table>`;
    const fresh = box.content.querySelector('table')!;
    const table = this.el.querySelector('table')!;
    table.setAttribute('width', fresh.getAttribute('width')!);
    table.querySelector('colgroup')!.replaceWith(fresh.querySelector('colgroup')!);
  }

  /** One row's `<tr>` as the whole table renders it, and its cells; null when it is not one row of this table. */
  private row(line: string): { tr: string; cells: Tokens.TableCell[] } | null {
    const token = tableToken(this.head + line);
    if (token?.rows.length !== 1) return null;
    const cells = token.rows[0];
    const html = renderBlock(this.head + line, true, [token]);
    const body = html.indexOf(TBODY);
    if (body < 0 || html.slice(html.indexOf(COLGROUP_END) + COLGROUP_END.length, body) !== this.theadHtml) return null;
    if (!html.endsWith(TBODY_END + TABLE_END)) return null;
    const tr = html.slice(body + TBODY.length, -(TBODY_END + TABLE_END).length);
    return tr.startsWith('<tr>') && tr.indexOf('<tr>', 1) < 0 ? { tr, cells } : null;
  }

  private insert(tr: string, frozen: boolean): void {
    if (!this.body) {
      this.body = document.createElement('tbody');
      this.el.querySelector('table')!.append(this.body);
    }
    const box = document.createElement('template');
    box.innerHTML = `<table><tbody>${tr}</tbody></table>`;
    const nodes = [...box.content.querySelector('tbody')!.childNodes];
    const before = this.live[0] ?? null;
    for (const n of nodes) this.body.insertBefore(n, frozen ? before : null);
    if (frozen) this.rowsHtml += tr;
    else {
      this.live = nodes;
      this.liveHtml = tr;
    }
  }
}
