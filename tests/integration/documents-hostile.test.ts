import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DocumentInfo, KnowledgeBase } from '@shared/contract/documents';
import { ExtractThread } from '../../electron/main/services/documents/extract/thread';
import { DocumentsService } from '../../electron/main/services/documents/service';
import { createLogger } from '../../electron/main/services/log';
import { MemoryDocIndex } from '../helpers/memory-doc-index';
import { docxBomb } from '../fixtures/documents/docx';
import { pdfRepeatedPage } from '../fixtures/documents/pdf';
import { embeddingModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';
import type { ServicesOptions } from '../../electron/main/services';
import type { AppError } from '../../shared/errors';

/**
 * Issue #38: hostile documents attached through docs.attachPath on the real services. Each fails in words while the
 * rest of the base is indexed, the app answers its next call within a second meanwhile (documents are read on a
 * worker thread), and a relaunch on the same data folder does not read them again.
 */
describe('hostile documents', () => {
  let fx: OllamaFixture;
  let dir: { path: string; remove(): void };
  const nomic = { backend: 'ollama' as const, model: 'nomic-embed-text' };
  const open = (dataDir: string, extract?: NonNullable<ServicesOptions['documents']>['extract']) =>
    startTestApp({
      dataDir,
      env: { OLLAMA_HOST: fx.url },
      documents: { settleMs: 50, startDelayMs: 3_600_000, extract },
    });
  /** Polls `pred` for up to 30 s; past that it fails saying what it waited for and what it last saw. */
  const until = async (pred: () => boolean | Promise<boolean>, seen?: () => Promise<unknown>) => {
    const end = performance.now() + 30_000;
    while (!(await pred())) {
      if (performance.now() > end)
        throw new Error(`waited 30 s in vain; last seen: ${JSON.stringify(await seen?.().catch(String))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const settled = (b: KnowledgeBase) => b.documents.every((d) => d.state === 'ready' || d.state === 'error');
  const byName = (b: KnowledgeBase) =>
    Object.fromEntries(b.documents.map((d) => [d.name, d])) as Record<string, DocumentInfo>;
  /** How long one call takes to answer. */
  const timed = async (app: TestApp) => {
    const since = performance.now();
    await app.client.call('docs.bases', {});
    return performance.now() - since;
  };

  beforeAll(async () => {
    fx = await startOllamaFixture({ models: [embeddingModel()] });
    dir = tempDir('hubdesk-docs-hostile-');
  });
  afterAll(async () => {
    await fx.stop();
    dir.remove();
  });

  it('F1, F5, F9, F13: each hostile file fails in words, the rest is indexed, a relaunch reads none again', async () => {
    const folder = join(dir.path, 'hostile');
    mkdirSync(folder);
    writeFileSync(join(folder, 'bomb.docx'), await docxBomb(300 * 1024 * 1024));
    writeFileSync(join(folder, 'pages.pdf'), pdfRepeatedPage(20_000));
    writeFileSync(join(folder, 'wide.csv'), Array.from({ length: 50_000 }, (_, i) => `f${i}`).join(','));
    writeFileSync(join(folder, 'deep.json'), `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    writeFileSync(join(folder, 'notes.md'), '# Notes\n\nThe ferry leaves at nine.\n');
    const dataDir = join(dir.path, 'data-1');
    mkdirSync(dataDir);
    // The CSV cap lowered so the test's table stays small (2,000,000 cells in the app).
    const limits = { limits: { maxCells: 10_000 } };
    const app = await open(dataDir, limits);
    let id: string;
    try {
      await app.client.call('docs.embedder.set', nomic);
      const { base } = await app.client.call('docs.bases.create', { name: 'Hostile' });
      id = base.id;
      await app.client.call('docs.attachPath', { target: { base: id }, path: folder });
      expect(await timed(app)).toBeLessThan(1_000);
      let last: KnowledgeBase | undefined;
      await until(async () => settled((last = (await app.client.call('docs.bases', {})).bases[0])));
      const docs = byName(last!);
      expect(docs['notes.md'].state).toBe('ready');
      const failed = (name: string) => {
        expect(docs[name].state).toBe('error');
        expect(docs[name].error?.code).toBe('invalid_input');
        return docs[name].error?.message;
      };
      expect(failed('bomb.docx')).toBe(
        'This file expands to more than 200 MB when unpacked: HubDesk does not index it.',
      );
      expect(failed('pages.pdf')).toBe(
        'This PDF has 20,000 pages; HubDesk reads PDFs of up to 2,000 pages: split it into smaller files.',
      );
      expect(failed('wide.csv')).toBe(
        'This table has more than 10,000 cells: HubDesk does not index it. Split it into smaller files.',
      );
      expect(failed('deep.json')).toBe('This JSON file nests more than 512 levels deep: HubDesk does not index it.');
    } finally {
      await app.close();
    }

    const read = vi.spyOn(ExtractThread.prototype, 'read');
    const again = await open(dataDir, limits);
    try {
      await again.services.documents.start();
      await again.services.documents.indexer.idle();
      expect(read).not.toHaveBeenCalled();
      const docs = byName((await again.client.call('docs.bases', {})).bases[0]);
      expect(Object.values(docs).filter((d) => d.state === 'error')).toHaveLength(4);
    } finally {
      read.mockRestore();
      await again.close();
    }
  }, 60_000);

  it('a file past the time limit ends the worker, the app answers meanwhile, and the next file is read', async () => {
    const folder = join(dir.path, 'slow');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a-pages.pdf'), pdfRepeatedPage(20_000));
    writeFileSync(join(folder, 'b-notes.md'), '# Notes\n\nThe ferry leaves at nine.\n');
    const dataDir = join(dir.path, 'data-2');
    mkdirSync(dataDir);
    // No page cap: the 20,000 pages are read until the time limit (a minute in the app) ends the worker.
    const app = await open(dataDir, { limits: { maxPages: 1_000_000 }, timeoutMs: 2_000 });
    try {
      await app.client.call('docs.embedder.set', nomic);
      const { base } = await app.client.call('docs.bases.create', { name: 'Slow' });
      await app.client.call('docs.attachPath', { target: { base: base.id }, path: folder });
      const pdf = async () => byName((await app.client.call('docs.bases', {})).bases[0])['a-pages.pdf'];
      await until(
        async () => (await pdf()).state === 'extracting',
        () => pdf(),
      );
      await new Promise((r) => setTimeout(r, 300));
      for (let i = 0; i < 3; i++) expect(await timed(app)).toBeLessThan(1_000);
      expect((await pdf()).state).toBe('extracting');
      let last: KnowledgeBase | undefined;
      await until(async () => settled((last = (await app.client.call('docs.bases', {})).bases[0])));
      const docs = byName(last!);
      expect(docs['a-pages.pdf'].error).toMatchObject({
        code: 'invalid_input',
        message: 'Reading this file took more than 2 seconds, so HubDesk stopped: it does not index it.',
        details: { reason: 'too_slow' },
      });
      expect(docs['b-notes.md'].state).toBe('ready');
    } finally {
      await app.close();
    }
  }, 60_000);

  it('quitting while a file is read ends the reading at once; the file waits in the queue, not failed', async () => {
    const folder = join(dir.path, 'quit');
    mkdirSync(folder);
    writeFileSync(join(folder, 'pages.pdf'), pdfRepeatedPage(20_000));
    const dataDir = join(dir.path, 'data-3');
    mkdirSync(dataDir);
    const slow = { limits: { maxPages: 1_000_000 }, timeoutMs: 60_000 };
    const app = await open(dataDir, slow);
    await app.client.call('docs.embedder.set', nomic);
    const { base } = await app.client.call('docs.bases.create', { name: 'Quit' });
    await app.client.call('docs.attachPath', { target: { base: base.id }, path: folder });
    const pdf = async (a: TestApp) => (await a.client.call('docs.bases', {})).bases[0].documents[0];
    await until(
      async () => (await pdf(app)).state === 'extracting',
      () => pdf(app),
    );
    const since = performance.now();
    await app.close();
    expect(performance.now() - since).toBeLessThan(2_000);
    const again = await open(dataDir, slow);
    try {
      const doc = await pdf(again);
      expect(['queued', 'extracting']).toContain(doc.state);
      expect(doc.error).toBeUndefined();
    } finally {
      await again.close();
    }
  }, 60_000);

  it('Stop on a base ends the reading of its file at once; the file waits in the queue', async () => {
    const folder = join(dir.path, 'stop');
    mkdirSync(folder);
    writeFileSync(join(folder, 'pages.pdf'), pdfRepeatedPage(20_000));
    const dataDir = join(dir.path, 'data-4');
    mkdirSync(dataDir);
    const app = await open(dataDir, { limits: { maxPages: 1_000_000 }, timeoutMs: 60_000 });
    try {
      await app.client.call('docs.embedder.set', nomic);
      const { base } = await app.client.call('docs.bases.create', { name: 'Stop' });
      await app.client.call('docs.attachPath', { target: { base: base.id }, path: folder });
      const pdf = async () => (await app.client.call('docs.bases', {})).bases[0].documents[0];
      await until(
        async () => (await pdf()).state === 'extracting',
        () => pdf(),
      );
      const since = performance.now();
      expect((await app.client.call('docs.cancel', { base: base.id })).base.paused).toBe(true);
      await app.services.documents.indexer.idle();
      expect(performance.now() - since).toBeLessThan(1_000);
      const doc = await pdf();
      expect(doc.state).toBe('queued');
      expect(doc.error).toBeUndefined();
    } finally {
      await app.close();
    }
  }, 60_000);

  it('a file that needs more memory than the worker has ends the worker, in words; the next file is read', async () => {
    const thread = new ExtractThread({
      log: createLogger({ minLevel: 'error' }),
      // The unpacking limits lifted, so mammoth reads the bomb's million paragraphs on a 64 MB heap.
      limits: { maxUnpackedBytes: 1e9, maxRatio: 1e6 },
      heapMb: 64,
    });
    const bomb = join(dir.path, 'heavy.docx');
    writeFileSync(bomb, await docxBomb(32 * 1024 * 1024, { unit: '</w:t></w:r></w:p><w:p><w:r><w:t>a' }));
    const notes = join(dir.path, 'after.md');
    writeFileSync(notes, '# After\n\nStill read.\n');
    try {
      const e = await thread.read(bomb).then(
        () => undefined,
        (err: unknown) => err as AppError,
      );
      expect(e).toMatchObject({
        code: 'invalid_input',
        message: 'Reading this file needs more than the 64 MB of memory HubDesk gives it: it does not index it.',
        details: { reason: 'too_much_memory' },
      });
      expect((await thread.read(notes)).chunks[0].text).toContain('Still read.');
    } finally {
      await thread.close();
    }
  }, 60_000);

  it('a file HubDesk stopped in twice is not read at launch again; attaching it again retries it', async () => {
    const file = join(dir.path, 'again.md');
    writeFileSync(file, '# Again\n\nRead once more.\n');
    const index = new MemoryDocIndex();
    index.setEmbedder(nomic);
    const base = index.createBase('Again');
    const source = index.addSource(base, 'file', file);
    const { size: sizeBytes, mtimeMs } = statSync(file);
    const row = { base, source, name: 'again.md', file, path: 'again.md', sizeBytes, mtimeMs };
    // Left mid-read by a run that stopped (killed, or ended by the file): the next launch reads it once more.
    const doc = index.upsertDocument({ ...row, state: 'extracting', pinned: false, tokens: 0 });
    const read = vi.spyOn(ExtractThread.prototype, 'read');
    const service = () =>
      new DocumentsService({
        index,
        embed: async (_e, texts) => texts.map(() => [1, 0, 0]),
        log: createLogger({ minLevel: 'error' }),
        uploadsDir: join(dir.path, 'uploads'),
      });
    try {
      let svc = service();
      await svc.start();
      await svc.indexer.idle();
      expect(read).toHaveBeenCalledTimes(1);
      expect(index.document(doc)?.state).toBe('ready');
      await svc.dispose();

      // Stopped again while it was read once more (the mark it is read with stays): not read at the next launch.
      const first = index.document(doc)!;
      index.upsertDocument({
        ...first,
        state: 'extracting',
        error: {
          code: 'invalid_input',
          message: 'read once more',
          details: { file: 'again.md', reason: 'interrupted' },
        },
      });
      read.mockClear();
      svc = service();
      await svc.start();
      await svc.indexer.idle();
      expect(read).not.toHaveBeenCalled();
      const stopped = (await svc.bases()).bases[0].documents[0];
      expect(stopped.state).toBe('error');
      expect(stopped.error?.message).toBe(
        'HubDesk stopped twice while reading this file, so it does not read it at launch: attach it again to retry.',
      );
      await svc.attachPath({ base }, file);
      await svc.indexer.idle();
      expect(read).toHaveBeenCalledTimes(1);
      expect((await svc.bases()).bases[0].documents[0].state).toBe('ready');
      await svc.dispose();
    } finally {
      read.mockRestore();
    }
  }, 60_000);
});
