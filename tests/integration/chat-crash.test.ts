import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../electron/main/services/chat/storage/db-open';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { createLogger } from '../../electron/main/services/log';
import { tempDir } from '../helpers/app';

const root = resolve(import.meta.dirname, '../..');
const jiti = join(root, 'node_modules/jiti/lib/jiti-cli.mjs');
const writer = join(root, 'tests/crash/chat-writer.ts');
const token = (id: string, i: number) => `${id}:${i} `;

interface Acks {
  /** Messages whose put returned. */
  put: string[];
  /** Tokens acknowledged per streaming reply. */
  appended: Map<string, number>;
  done: Map<string, number>;
  /** Per restart: replies still streaming as the writer found them (the parent reopened the store first). */
  opened: number[];
}

/** Runs the writer until it has acknowledged something, then SIGKILLs it after a random delay. */
function runAndKill(dir: string, acks: Acks): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [jiti, writer, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, JITI_ALIAS: JSON.stringify({ '@shared': join(root, 'shared') }) },
    });
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
        if (kind === 'open') acks.opened.push(Number(id));
        else if (kind === 'put') acks.put.push(id);
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

describe('chat store (SQLite) survives SIGKILL at random moments', () => {
  const dir = tempDir('hubdesk-crash-');
  afterAll(() => dir.remove());

  it('every acknowledged message and checkpoint is there after each of 40 kills; nothing is corrupt', async () => {
    const acks: Acks = { put: [], appended: new Map(), done: new Map(), opened: [] };
    const kills = 40;
    let interrupted = 0;
    for (let k = 0; k < kills; k++) {
      await runAndKill(dir.path, acks);

      const raw = openDb(join(dir.path, 'chats.sqlite'));
      expect(raw.prepare('PRAGMA integrity_check').get()).toMatchObject({ integrity_check: 'ok' });
      raw.close();
      const store = new ChatStore({ file: join(dir.path, 'chats.sqlite') }, createLogger());
      const conv = store.get(store.list()[0].id);
      const messages = conv.messages;
      store.close();

      // The path holds every acknowledged message, in the order they were written.
      const ids = messages.map((m) => m.id);
      // (Writes done but not yet acknowledged when the kill came may be there too, in their place.)
      expect(
        acks.put.filter((id) => ids.includes(id)),
        'an acknowledged message is missing',
      ).toEqual(acks.put);
      const at = acks.put.map((id) => ids.indexOf(id));
      expect(at).toEqual([...at].sort((a, b) => a - b));
      const byId = new Map(messages.map((m) => [m.id, m]));
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
      // A reply cut by the kill reopens as "interrupted", never as "streaming" or "stopped".
      for (const m of messages) expect(['complete', 'interrupted']).toContain(m.status);
      interrupted = messages.filter((m) => m.status === 'interrupted').length;
    }
    expect(acks.opened).toHaveLength(kills);
    // Each restart found no reply left streaming: the parent's reopen had marked them interrupted.
    for (const o of acks.opened) expect(o).toBe(0);
    expect(acks.put.length).toBeGreaterThan(kills);
    console.info(
      `crash test: ${kills} kills, ${interrupted} replies left interrupted, ${acks.put.length} messages acknowledged`,
    );
  }, 180_000);
});
