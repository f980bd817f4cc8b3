import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DocumentInfo, KnowledgeBase } from '@shared/contract/documents';
import { ExtractThread } from '../../electron/main/services/documents/extract/thread';
import { MAX_FOLDER_DEPTH, walk } from '../../electron/main/services/documents/sources';
import { FolderWatcher } from '../../electron/main/services/documents/watcher';
import { embeddingModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, tempDir } from '../helpers/app';

/**
 * Issue #38, F2: an attached folder holding a symlink loop (`sub/up -> ../..`) and a link to `/`. Folders are walked,
 * never followed: docs.attachPath answers at once, the links are listed as links, and a relaunch answers too.
 */
describe('attached folders with links', () => {
  let fx: OllamaFixture;
  let dir: { path: string; remove(): void };
  let folder: string;
  const until = async (pred: () => boolean | Promise<boolean>) => {
    while (!(await pred())) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    fx = await startOllamaFixture({ models: [embeddingModel()] });
    dir = tempDir('hubdesk-docs-links-');
    folder = join(dir.path, 'folder');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'notes.md'), '# Notes\n\nThe ferry leaves at nine.\n');
    writeFileSync(join(folder, 'sub', 'tide.md'), '# Tides\n\nHigh water at noon.\n');
    symlinkSync('../..', join(folder, 'sub', 'up'));
    symlinkSync('/', join(folder, 'root'));
  });
  afterAll(async () => {
    await fx.stop();
    dir.remove();
  });

  it('the watcher walks the folder without following its links', async () => {
    const changed = vi.fn();
    const watcher = new FolderWatcher(changed, 20);
    try {
      await watcher.watch('s_one', folder);
      const paths = await watcher.watched('s_one');
      expect(paths.length).toBeLessThan(20);
      expect(paths.filter((p) => p.includes(`${folder}/root/`) || p.includes('/up/'))).toEqual([]);
      expect(paths).toContain(join(folder, 'sub', 'tide.md'));
      // Still watched: a new file is seen.
      changed.mockClear();
      writeFileSync(join(folder, 'sub', 'new.md'), 'new');
      await until(() => changed.mock.calls.length > 0);
    } finally {
      await watcher.close();
    }
  });

  it('docs.attachPath answers at once; the links are listed as skipped, with the reason; a relaunch answers too', async () => {
    const dataDir = join(dir.path, 'data');
    mkdirSync(dataDir);
    const open = () =>
      startTestApp({ dataDir, env: { OLLAMA_HOST: fx.url }, documents: { settleMs: 50, startDelayMs: 3_600_000 } });
    const app = await open();
    try {
      await app.client.call('docs.embedder.set', { backend: 'ollama', model: 'nomic-embed-text' });
      const { base } = await app.client.call('docs.bases.create', { name: 'Links' });
      const since = performance.now();
      await app.client.call('docs.attachPath', { target: { base: base.id }, path: folder });
      expect(performance.now() - since).toBeLessThan(1_000);
      let last: KnowledgeBase | undefined;
      await until(async () => {
        last = (await app.client.call('docs.bases', {})).bases[0];
        return last.documents.length > 0 && last.documents.every((d) => d.state === 'ready' || d.state === 'error');
      });
      const docs = Object.fromEntries(last!.documents.map((d) => [d.path, d])) as Record<string, DocumentInfo>;
      expect(Object.keys(docs).sort()).toEqual(expect.arrayContaining(['notes.md', 'root', 'sub/tide.md', 'sub/up']));
      expect(docs['notes.md'].state).toBe('ready');
      expect(docs['sub/up']).toMatchObject({
        state: 'error',
        error: {
          code: 'invalid_input',
          message:
            'This is a link (to ../..): HubDesk does not follow links in an attached folder. Attach what it points to instead.',
          details: { reason: 'link' },
        },
      });
      expect(docs.root.error?.message).toMatch(/^This is a link \(to \/\)/);
    } finally {
      await app.close();
    }

    const read = vi.spyOn(ExtractThread.prototype, 'read');
    const again = await open();
    try {
      const since = performance.now();
      await again.services.documents.start();
      const { bases } = await again.client.call('docs.bases', {});
      expect(performance.now() - since).toBeLessThan(1_000);
      await again.services.documents.indexer.idle();
      expect(read).not.toHaveBeenCalled();
      expect(bases[0].documents.filter((d) => d.error?.details).length).toBe(2);
    } finally {
      read.mockRestore();
      await again.close();
    }
  });

  it('walks a folder to a depth cap', async () => {
    const deep = join(dir.path, 'deep');
    let at = deep;
    for (let i = 0; i <= MAX_FOLDER_DEPTH + 2; i++) {
      at = join(at, `d${i}`);
      mkdirSync(at, { recursive: true });
      writeFileSync(join(at, 'f.md'), `level ${i + 1}`);
    }
    const found = await walk(deep);
    expect(found).toHaveLength(MAX_FOLDER_DEPTH);
  });
});
