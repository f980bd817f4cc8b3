import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '@shared/contract/documents';
import { docxBytes } from '../fixtures/documents/docx';
import { pdfBytes } from '../fixtures/documents/pdf';
import { embeddingModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/**
 * The docs.* calls through the typed client, the web transport and the router, on the real services: the index in
 * the chat database (libsql, vectors and FTS5), the indexer, and the Ollama fixture's /api/embed.
 */
describe('docs.* calls', () => {
  let fx: OllamaFixture;
  let dir: { path: string; remove(): void };
  let app: TestApp;
  const nomic = { backend: 'ollama' as const, model: 'nomic-embed-text' };
  const open = (dataDir: string) =>
    startTestApp({
      dataDir,
      env: { OLLAMA_HOST: fx.url },
      documents: { batch: 2, settleMs: 50, startDelayMs: 60_000 },
    });
  const embeddedInputs = () =>
    fx.requestsTo('/api/embed').reduce((n, r) => n + (r.body as { input: string[] }).input.length, 0);
  const chunks = (b: KnowledgeBase) => b.documents.reduce((n, d) => n + d.chunks, 0);
  const until = async (pred: () => boolean | Promise<boolean>) => {
    while (!(await pred())) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    fx = await startOllamaFixture({ models: [embeddingModel()] });
    dir = tempDir('hubdesk-docs-calls-');
    const root = join(dir.path, 'folder');
    mkdirSync(root);
    const lines = Array.from({ length: 300 }, (_, i) => `Line ${i}: the ferry timetable changes with the seasons.`);
    writeFileSync(
      join(root, 'timetable.md'),
      `# Timetable\n\n${lines.join('\n\n')}\n\n## Winter\n\nThe last ferry leaves at 17:40.\n`,
    );
    writeFileSync(join(root, 'report.pdf'), pdfBytes(['Harbour report', 'Dredging finished in March.']));
    writeFileSync(
      join(root, 'memo.docx'),
      docxBytes([{ style: 'Heading1', text: 'Memo' }, { text: 'Pier 3 closes.' }]),
    );
    app = await open(join(dir.path, 'data'));
  });
  afterAll(async () => {
    await app.close();
    await fx.stop();
    dir.remove();
  });

  it('attaches a folder, shows progress on docs.watch, searches and opens a cited passage; a restart mid-index redoes nothing', async () => {
    const c = app.client;
    expect(await c.call('docs.bases', {})).toEqual({ bases: [] });
    expect(await c.call('docs.embedder.set', nomic)).toEqual({ embedder: nomic });
    const { base: named } = await c.call('docs.bases.create', { name: 'Harbour' });
    fx.fault('/api/embed', { delayMs: 100 });
    const events: KnowledgeBase[][] = [];
    const watch = c.stream('docs.watch', {}, (es) => events.push(...es.map((e) => e.bases)));
    const { base } = await c.call('docs.attachPath', { target: { base: named.id }, path: join(dir.path, 'folder') });
    expect(base.sources[0]).toMatchObject({ kind: 'folder', exists: true });
    await until(() => fx.requestsTo('/api/embed').length >= 2);
    // Progress: some chunks done, a speed and the time left while a document embeds.
    await until(() =>
      events.some((bs) => bs[0]?.documents.some((d) => d.state === 'embedding' && d.chunksPerSecond !== undefined)),
    );
    watch.cancel();
    await watch.result.catch(() => undefined);

    // A restart: what was embedded stays, the rest is embedded once.
    await app.close().catch(() => undefined);
    const before = embeddedInputs();
    app = await open(join(dir.path, 'data'));
    const stored = (await app.client.call('docs.bases', {})).bases[0];
    const done = stored.documents.reduce((n, d) => n + d.chunksDone, 0);
    expect(done).toBeGreaterThan(0);
    fx.clearFaults();
    await app.services.documents.start();
    await app.services.documents.indexer.idle();
    const after = (await app.client.call('docs.bases', {})).bases[0];
    expect(after.documents.map((d) => [d.name, d.state]).sort()).toEqual([
      ['memo.docx', 'ready'],
      ['report.pdf', 'ready'],
      ['timetable.md', 'ready'],
    ]);
    expect(embeddedInputs() - before).toBe(chunks(after) - done);

    const { hits } = await app.client.call('docs.search', {
      bases: [after.id],
      query: 'When does the last ferry leave?',
    });
    const hit = hits.find((h) => h.text.includes('17:40'))!;
    expect(hit).toBeDefined();
    const passage = await app.client.call('docs.passage', { chunk: hit.chunk });
    expect(passage).toMatchObject({ name: 'timetable.md', heading: 'Timetable › Winter' });

    const memo = after.documents.find((d) => d.name === 'memo.docx')!;
    const pinned = await app.client.call('docs.pin', { document: memo.id, pinned: true });
    expect(pinned.base.documents.find((d) => d.id === memo.id)?.pinned).toBe(true);
  });

  it('says what to do where the desktop dialog is not there, and what is wrong with a path', async () => {
    const c = app.client;
    await expect(c.call('docs.attachPick', { target: { conversation: 'c_abc' }, folder: false })).rejects.toThrow(
      /drag them in, or use Attach/,
    );
    await expect(
      c.call('docs.attachPath', { target: { conversation: 'c_abc' }, path: join(dir.path, 'nowhere') }),
    ).rejects.toThrow(/is not there: check the path/);
    await expect(c.call('docs.cancel', { base: 'b_gone' })).rejects.toThrow(/knowledge base was deleted/);
  });

  it('uploads a file in parts into a conversation, and deletes a base with its uploaded copy', async () => {
    const c = app.client;
    const data = Buffer.from('# Note\n\nThe lighthouse is white.').toString('base64');
    const { upload } = await c.call('docs.uploadPart', { data: data.slice(0, 12) });
    await c.call('docs.uploadPart', { upload, data: data.slice(12) });
    const { base } = await c.call('docs.attachUpload', { target: { conversation: 'c_up' }, upload, name: 'note.md' });
    expect(base.conversation).toBe('c_up');
    await app.services.documents.indexer.idle();
    const ctx = await app.services.documents.retrieve({
      conversation: 'c_up',
      bases: [],
      question: 'What colour is the lighthouse?',
      budgetTokens: 2_000,
    });
    expect(ctx?.context).toMatchObject({ mode: 'whole', citations: [{ n: 1, name: 'note.md' }] });
    expect(ctx?.system).toContain('The lighthouse is white.');
    expect(await c.call('docs.bases.delete', { id: base.id })).toEqual({ deleted: true });
    expect((await c.call('docs.bases', { conversation: 'c_up' })).bases.map((b) => b.name)).toEqual(['Harbour']);
  });
});
