import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

/**
 * One conversation's append-only journal: JSON lines, each a record replayed in order.
 * Kept free of app imports so the crash test's child process runs this very code.
 *
 * - `put`: a whole message (added, or replaced by id — e.g. a reply's final state or an edit)
 * - `append`: text added to a streaming reply since the last checkpoint
 * - `cut`: this message and every later one are dropped (regenerate, edit and regenerate)
 */
export type JournalRecord =
  | { t: 'put'; msg: JournalMessage }
  | { t: 'append'; id: string; content?: string; thinking?: string }
  | { t: 'cut'; from: string };

/** The journal does not care about a message's shape beyond its id and streamed text. */
export interface JournalMessage {
  id: string;
  content: string;
  thinking?: string;
  [k: string]: unknown;
}

export interface OpenReport {
  /** Bytes dropped from the end: a torn last line left by a crash. */
  tornBytes: number;
  /** Complete lines that were not valid records (never produced by a crash; kept out of the replay). */
  badLines: number;
}

function isRecord(v: unknown): v is JournalRecord {
  const r = v as JournalRecord | null;
  if (typeof r !== 'object' || r === null) return false;
  if (r.t === 'put') return typeof r.msg === 'object' && r.msg !== null && typeof r.msg.id === 'string';
  if (r.t === 'append') return typeof r.id === 'string';
  if (r.t === 'cut') return typeof r.from === 'string';
  return false;
}

/** Applies records in order and returns the resulting message list. */
export function replay(records: Iterable<JournalRecord>): JournalMessage[] {
  const list: JournalMessage[] = [];
  const index = new Map<string, number>();
  for (const r of records) {
    if (r.t === 'put') {
      const i = index.get(r.msg.id);
      if (i === undefined) {
        index.set(r.msg.id, list.length);
        list.push({ ...r.msg });
      } else list[i] = { ...r.msg };
    } else if (r.t === 'append') {
      const i = index.get(r.id);
      if (i === undefined) continue;
      const m = list[i];
      if (r.content) m.content += r.content;
      if (r.thinking) m.thinking = (m.thinking ?? '') + r.thinking;
    } else {
      const i = index.get(r.from);
      if (i === undefined) continue;
      for (const m of list.splice(i)) index.delete(m.id);
    }
  }
  return list;
}

/**
 * Reads a journal file, recovering from a crash: a last line without its newline that does not parse is
 * dropped (and truncated away, so the next append starts clean); every earlier line is kept.
 */
export function readJournal(path: string): { records: JournalRecord[]; report: OpenReport; goodLength: number } {
  const report: OpenReport = { tornBytes: 0, badLines: 0 };
  if (!existsSync(path)) return { records: [], report, goodLength: 0 };
  const buf = readFileSync(path);
  const records: JournalRecord[] = [];
  const parse = (line: string): JournalRecord | undefined => {
    try {
      const v: unknown = JSON.parse(line);
      return isRecord(v) ? v : undefined;
    } catch {
      return undefined;
    }
  };
  // Every line before the last newline is complete: decode them in one go (the common, fast path).
  const lastNl = buf.lastIndexOf(0x0a);
  if (lastNl >= 0) {
    for (const raw of buf.toString('utf8', 0, lastNl).split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      const rec = parse(line);
      if (rec) records.push(rec);
      else report.badLines++;
    }
  }
  let goodLength = lastNl + 1;
  // The tail after the last newline: a record whose write was cut short, or a complete one missing only "\n".
  if (goodLength < buf.length) {
    const tail = buf.toString('utf8', goodLength).trim();
    const rec = tail ? parse(tail) : undefined;
    if (rec) {
      records.push(rec);
      goodLength = buf.length;
    } else report.tornBytes = buf.length - goodLength;
  }
  return { records, report, goodLength };
}

/** Appends records to one journal file; each `append` is a single write of whole lines. */
export class Journal {
  private fd: number;
  private closed = false;

  private constructor(
    readonly path: string,
    fd: number,
    readonly records: JournalRecord[],
    readonly report: OpenReport,
  ) {
    this.fd = fd;
  }

  /** `records`: what was in the file at open; later appends are not kept here. */
  /** Opens (creating if needed) and repairs a torn tail, so the file ends on a whole line. */
  static open(path: string): Journal {
    mkdirSync(dirname(path), { recursive: true });
    const { records, report, goodLength } = readJournal(path);
    const fd = openSync(path, 'a+', 0o600);
    if (report.tornBytes > 0) {
      ftruncateSync(fd, goodLength);
      fsyncSync(fd);
    } else if (goodLength > 0) {
      // A complete last record without its newline: finish the line before appending.
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, goodLength - 1);
      if (last[0] !== 0x0a) writeSync(fd, '\n');
    }
    return new Journal(path, fd, records, report);
  }

  messages(): JournalMessage[] {
    return replay(this.records);
  }

  /**
   * Writes the records as whole lines in one write. `sync` (default) fsyncs before returning, so an
   * acknowledged record survives a crash of the process or of the machine.
   */
  append(recs: JournalRecord[], sync = true): void {
    if (this.closed) throw new Error('journal is closed');
    if (recs.length === 0) return;
    const text = recs.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const data = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < data.length) off += writeSync(this.fd, data, off, data.length - off);
    if (sync) fsyncSync(this.fd);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
