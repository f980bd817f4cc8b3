import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal, readJournal } from '../../electron/main/services/chat/journal';
import { tempDir } from '../helpers/app';

const root = resolve(import.meta.dirname, '../..');
const jiti = join(root, 'node_modules/jiti/lib/jiti-cli.mjs');
const writer = join(root, 'tests/crash/journal-writer.ts');
const token = (id: string, i: number) => `${id}:${i} `;

interface Acks {
  /** Messages whose put returned. */
  put: Set<string>;
  /** Tokens acknowledged per streaming reply. */
  appended: Map<string, number>;
  done: Map<string, number>;
  opened: { torn: number; bad: number }[];
}

/** Runs the writer until it has acknowledged something, then SIGKILLs it after a random delay. */
function runAndKill(dir: string, acks: Acks): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [jiti, writer, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    let err = '';
    let armed = false;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) {
        const [kind, id, num] = line.split(' ');
        if (kind === 'open') acks.opened.push({ torn: Number(id), bad: Number(num) });
        else if (kind === 'put') acks.put.add(id);
        else if (kind === 'append') acks.appended.set(id, Number(num));
        else if (kind === 'done') acks.done.set(id, Number(num));
        if (!armed && kind === 'put') {
          armed = true;
          setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 120));
        }
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') ok();
      else fail(new Error(`writer exited with ${code}: ${err}`));
    });
  });
}

describe('chat journal survives SIGKILL at random moments', () => {
  const dir = tempDir('hubdesk-crash-');
  afterAll(() => dir.remove());

  it('every acknowledged message and checkpoint is there after each of 40 kills; nothing is corrupt', async () => {
    const acks: Acks = { put: new Set(), appended: new Map(), done: new Map(), opened: [] };
    const kills = 40;
    let torn = 0;
    for (let k = 0; k < kills; k++) {
      await runAndKill(dir.path, acks);

      const file = join(dir.path, 'journal.jsonl');
      const { records, report } = readJournal(file);
      // Only the very last line can be torn by a kill; no complete line is ever invalid.
      expect(report.badLines).toBe(0);
      if (report.tornBytes > 0) torn++;
      const journal = Journal.open(file);
      const messages = journal.messages();
      journal.close();
      expect(readJournal(file).report).toEqual({ tornBytes: 0, badLines: 0 });
      expect(records.length).toBeGreaterThan(0);

      const byId = new Map(messages.map((m) => [m.id, m]));
      for (const id of acks.put) expect(byId.has(id), `acknowledged message ${id} is missing`).toBe(true);
      for (const [id, n] of acks.appended) {
        const m = byId.get(id)!;
        // The text is exactly the tokens written, in order, with at least every acknowledged one.
        let expected = '';
        for (let i = 0; i < n; i++) expected += token(id, i);
        expect(m.content.startsWith(expected), `reply ${id} lost acknowledged tokens`).toBe(true);
        const count = m.content ? m.content.trim().split(' ').length : 0;
        let exact = '';
        for (let i = 0; i < count; i++) exact += token(id, i);
        expect(m.content).toBe(exact);
      }
      for (const [id, n] of acks.done) {
        expect(byId.get(id)!.status).toBe('complete');
        expect(byId.get(id)!.content.trim().split(' ')).toHaveLength(n);
      }
      // Metadata is written atomically: always whole JSON, never torn.
      const meta = JSON.parse(readFileSync(join(dir.path, 'meta.json'), 'utf8')) as { id: string };
      expect(meta.id).toBe('c_crash');
    }
    expect(acks.opened).toHaveLength(kills);
    // Each restart of the writer reopened the journal cleanly (the test reopened and repaired it first).
    for (const o of acks.opened) expect(o).toEqual({ torn: 0, bad: 0 });
    expect(acks.put.size).toBeGreaterThan(kills);
    console.info(`crash test: ${kills} kills, ${torn} left a torn last line, ${acks.put.size} messages acknowledged`);
  }, 180_000);
});
