import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, tempDir } from '../helpers/app';

const root = resolve(__dirname, '../..');
const jiti = join(root, 'node_modules/jiti/lib/jiti-cli.mjs');
const child = join(root, 'tests/crash/docs-indexer.ts');

/**
 * Indexing killed mid-way (SIGKILL, no chance to clean up), then HubDesk started again on the same data folder:
 * every vector committed before the kill is kept, and only the chunks without one are embedded.
 */
describe('documents indexing after a crash', () => {
  let fx: OllamaFixture;
  let dir: { path: string; remove(): void };

  beforeAll(async () => {
    fx = await startOllamaFixture({ models: [embeddingModel()] });
    dir = tempDir('hubdesk-docs-crash-');
  });
  afterAll(async () => {
    await fx.stop();
    dir.remove();
  });

  it('resumes from the stored state: nothing lost, nothing embedded twice', async () => {
    const folder = join(dir.path, 'folder');
    mkdirSync(folder);
    for (let f = 0; f < 3; f++) {
      const paras = Array.from({ length: 80 }, (_, i) => `File ${f}, paragraph ${i}: notes on the tide tables.`);
      writeFileSync(join(folder, `notes-${f}.md`), `# Notes ${f}\n\n${paras.join('\n\n')}\n`);
    }
    const dataDir = join(dir.path, 'data');
    mkdirSync(dataDir);
    fx.fault('/api/embed', { delayMs: 25 });
    await new Promise<void>((done, fail) => {
      const p = spawn(process.execPath, [jiti, child, dataDir, folder], {
        cwd: root,
        env: { ...process.env, OLLAMA_HOST: fx.url, JITI_ALIAS: JSON.stringify({ '@shared': join(root, 'shared') }) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      p.stderr.on('data', (d: Buffer) => (err += String(d)));
      p.stdout.on('data', (d: Buffer) => {
        const counts = [...String(d).matchAll(/embedded (\d+)/g)].map((m) => Number(m[1]));
        if (counts.some((n) => n >= 6)) p.kill('SIGKILL');
      });
      p.on('exit', (code, signal) => (signal === 'SIGKILL' ? done() : fail(new Error(`child ended ${code}: ${err}`))));
    });
    fx.clearFaults();
    const asked = () =>
      fx.requestsTo('/api/embed').reduce((n, r) => n + (r.body as { input: string[] }).input.length, 0);
    const before = asked();

    const app = await startTestApp({ dataDir, env: { OLLAMA_HOST: fx.url }, documents: { startDelayMs: 3_600_000 } });
    try {
      const stored = (await app.client.call('docs.bases', {})).bases[0];
      const kept = stored.documents.reduce((n, d) => n + d.chunksDone, 0);
      expect(kept).toBeGreaterThanOrEqual(6);
      expect(stored.documents.some((d) => d.state !== 'ready')).toBe(true);
      await app.services.documents.start();
      await app.services.documents.indexer.idle();
      const after = (await app.client.call('docs.bases', {})).bases[0];
      const total = after.documents.reduce((n, d) => n + d.chunks, 0);
      expect(after.documents.map((d) => d.state)).toEqual(['ready', 'ready', 'ready']);
      expect(after.documents.every((d) => d.chunksDone === d.chunks)).toBe(true);
      expect(asked() - before).toBe(total - kept);
    } finally {
      await app.close();
    }
  });
});
