import { mkdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '@shared/contract/documents';
import { createEmbedder } from '../../electron/main/services/documents/embedder';
import { DocumentsService } from '../../electron/main/services/documents/service';
import { docxBytes } from '../fixtures/documents/docx';
import { pdfBytes } from '../fixtures/documents/pdf';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';
import { MemoryDocIndex } from '../helpers/memory-doc-index';

/**
 * The indexer and the documents service against the Ollama fixture's /api/embed through the real OllamaService:
 * a folder of Markdown, PDF and Word files indexed, watched, cancelled and resumed, restarted mid-way, re-embedded.
 */
describe('documents indexer', () => {
  let fx: OllamaFixture;
  let app: TestApp;
  let dir: { path: string; remove(): void };
  let index: MemoryDocIndex;
  let svc: DocumentsService;

  const nomic = { backend: 'ollama' as const, model: 'nomic-embed-text' };
  const mxbai = { backend: 'ollama' as const, model: 'mxbai-embed-large' };
  const service = (batch = 32) =>
    new DocumentsService({
      index,
      embed: createEmbedder(app.services.engines),
      log: app.services.log,
      uploadsDir: join(app.dataDir, 'documents', 'uploads'),
      batch,
      settleMs: 50,
      // 10,000 in the app: the same check, on a folder the test writes quickly.
      maxFolderFiles: 50,
    });
  /** Texts sent to /api/embed for a model so far. */
  const embedded = (model: string) =>
    fx
      .requestsTo('/api/embed')
      .filter((r) => (r.body as { model: string }).model === model)
      .reduce((n, r) => n + ((r.body as { input: string[] }).input.length ?? 0), 0);
  const base = async (id: string) =>
    (await svc.bases(index.bases({ ids: [id] })[0]?.conversation)).bases.find((b) => b.id === id)!;
  const doc = (b: KnowledgeBase, name: string) => b.documents.find((d) => d.name === name)!;
  /** Polls the service until `pred` holds (the test's own timeout bounds it). */
  const until = async (pred: () => boolean | Promise<boolean>) => {
    while (!(await pred())) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    fx = await startOllamaFixture({
      models: [
        fixtureModel('nomic-embed-text', { family: 'nomic-bert' }),
        fixtureModel('mxbai-embed-large', { family: 'bert' }),
      ],
    });
    app = await startTestApp({ env: { OLLAMA_HOST: fx.url }, ollama: { timeoutMs: 2_000 } });
  });
  afterAll(async () => {
    await app.close();
    await fx.stop();
  });
  beforeEach(() => {
    dir = tempDir('hubdesk-docs-');
    index = new MemoryDocIndex();
    svc = service();
    fx.requests.length = 0;
  });
  afterEach(async () => {
    fx.clearFaults();
    await svc.dispose();
    dir.remove();
  });

  /** A folder with a Markdown file, a PDF, a Word file, an unsupported binary, and files that are skipped. */
  function folder(): string {
    const root = join(dir.path, 'notes');
    mkdirSync(join(root, 'sub'), { recursive: true });
    mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
    mkdirSync(join(root, '.git'), { recursive: true });
    const para = (i: number) => `Paragraph ${i} about the lighthouse keeper and the tides of the northern bay.`;
    writeFileSync(
      join(root, 'guide.md'),
      `# Guide\n\n${Array.from({ length: 60 }, (_, i) => para(i)).join('\n\n')}\n\n## Codes\n\nThe vault code is 7431.\n`,
    );
    writeFileSync(join(root, 'sub', 'report.pdf'), pdfBytes(['Quarterly report', 'Revenue grew by 12 percent.']));
    writeFileSync(
      join(root, 'sub', 'memo.docx'),
      docxBytes([{ style: 'Heading1', text: 'Memo' }, { text: 'The meeting moved to Thursday.' }]),
    );
    writeFileSync(join(root, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]));
    writeFileSync(join(root, '.hidden.md'), 'secret');
    writeFileSync(join(root, 'node_modules', 'x', 'readme.md'), 'skipped');
    writeFileSync(join(root, '.git', 'HEAD'), 'ref');
    return root;
  }

  it('indexes a folder in place: every readable file ready, the rest listed with the reason; each chunk embedded once', async () => {
    await svc.setEmbedder(nomic);
    const root = folder();
    const { base: b0 } = await svc.attachPath({ conversation: 'c_one' }, root);
    expect(b0.sources).toEqual([expect.objectContaining({ kind: 'folder', path: root })]);
    await svc.indexer.idle();
    const b = await base(b0.id);
    expect(b.documents.map((d) => d.path).sort()).toEqual(['blob.bin', 'guide.md', 'sub/memo.docx', 'sub/report.pdf']);
    for (const name of ['guide.md', 'report.pdf', 'memo.docx']) expect(doc(b, name)).toMatchObject({ state: 'ready' });
    expect(doc(b, 'guide.md').chunks).toBeGreaterThan(3);
    expect(doc(b, 'report.pdf')).toMatchObject({ kind: 'pdf', pages: 2 });
    expect(doc(b, 'blob.bin')).toMatchObject({ state: 'error', error: { details: { reason: 'unsupported' } } });
    const chunks = b.documents.reduce((n, d) => n + d.chunks, 0);
    expect(b.documents.every((d) => d.chunksDone === d.chunks)).toBe(true);
    expect(embedded('nomic-embed-text')).toBe(chunks);
    // The conversation's own base is where its attachments went; nothing outside the folder was read or copied.
    expect((await svc.bases('c_one')).bases.map((x) => x.id)).toContain(b.id);
    const { hits } = await svc.search([b.id], 'vault code', 3);
    expect(hits[0].text).toContain('7431');
  });

  it('follows a watched folder: a changed file is re-indexed, a new one added, a deleted one removed', async () => {
    await svc.setEmbedder(nomic);
    const root = folder();
    const { base: b0 } = await svc.attachPath({ conversation: 'c_two' }, root);
    await svc.indexer.idle();
    writeFileSync(join(root, 'guide.md'), '# Guide\n\nThe vault code is now 9902.\n');
    writeFileSync(join(root, 'sub', 'new.txt'), 'A new note about the harbour master.');
    rmSync(join(root, 'sub', 'memo.docx'));
    await until(async () => {
      const b = await base(b0.id);
      return (
        !b.documents.some((d) => d.name === 'memo.docx') &&
        doc(b, 'new.txt')?.state === 'ready' &&
        doc(b, 'guide.md').state === 'ready' &&
        doc(b, 'guide.md').chunks === 1
      );
    });
    const { hits } = await svc.search([b0.id], 'vault code', 1);
    expect(hits[0].text).toContain('9902');
  });

  it('cancel stops at the next batch and keeps what is embedded; resume goes on without redoing any', async () => {
    svc = service(2);
    await svc.setEmbedder(nomic);
    const root = folder();
    fx.fault('/api/embed', { delayMs: 30 });
    const { base: b0 } = await svc.attachPath({ conversation: 'c_three' }, root);
    await until(() => fx.requestsTo('/api/embed').length >= 2);
    svc.cancel(b0.id);
    await svc.indexer.idle();
    const paused = await base(b0.id);
    expect(paused.paused).toBe(true);
    const done = paused.documents.reduce((n, d) => n + d.chunksDone, 0);
    expect(done).toBeGreaterThan(0);
    expect(paused.documents.some((d) => d.state !== 'ready' && d.state !== 'error')).toBe(true);
    const sent = embedded('nomic-embed-text');
    fx.clearFaults();
    svc.resume(b0.id);
    await svc.indexer.idle();
    const b = await base(b0.id);
    expect(b.paused).toBeUndefined();
    const chunks = b.documents.reduce((n, d) => n + d.chunks, 0);
    expect(b.documents.filter((d) => d.state !== 'error').every((d) => d.state === 'ready')).toBe(true);
    expect(embedded('nomic-embed-text')).toBe(chunks);
    expect(embedded('nomic-embed-text') - sent).toBe(chunks - done);
  });

  it('after a restart mid-index it goes on from the stored state: nothing lost, nothing embedded twice', async () => {
    svc = service(2);
    await svc.setEmbedder(nomic);
    fx.fault('/api/embed', { delayMs: 20 });
    const { base: b0 } = await svc.attachPath({ base: index.createBase('Notes') }, folder());
    await until(() => fx.requestsTo('/api/embed').length >= 3);
    await svc.dispose();
    fx.clearFaults();
    svc = service(2);
    await svc.start();
    await svc.indexer.idle();
    const b = await base(b0.id);
    const chunks = b.documents.reduce((n, d) => n + d.chunks, 0);
    expect(b.documents.filter((d) => d.state !== 'error').every((d) => d.state === 'ready')).toBe(true);
    expect(embedded('nomic-embed-text')).toBe(chunks);
    expect(index.written.get('ollama:nomic-embed-text')).toBe(chunks);
  });

  it('a new embedder is built beside the current one, which serves until it is complete, then replaces it', async () => {
    await svc.setEmbedder(nomic);
    const { base: b0 } = await svc.attachPath({ conversation: 'c_four' }, folder());
    await svc.indexer.idle();
    fx.fault('/api/embed', { delayMs: 300, times: 1 });
    await svc.setEmbedder(mxbai);
    await until(() => fx.requestsTo('/api/embed').some((r) => (r.body as { model: string }).model === mxbai.model));
    const during = await base(b0.id);
    expect(during.reembedding).toMatchObject({ embedder: mxbai, done: 0 });
    expect((await svc.bases()).embedder).toEqual(nomic);
    // Search still runs on the old vectors (the question is embedded with the current model).
    const asked = fx.requestsTo('/api/embed').length;
    expect((await svc.search([b0.id], 'vault code', 1)).hits[0].text).toContain('7431');
    expect((fx.requestsTo('/api/embed')[asked].body as { model: string }).model).toBe(nomic.model);
    await svc.indexer.idle();
    const after = await base(b0.id);
    expect(after.reembedding).toBeUndefined();
    expect((await svc.bases()).embedder).toEqual(mxbai);
    expect(after.documents.every((d) => d.state === 'error' || d.chunksDone === d.chunks)).toBe(true);
    expect(embedded(mxbai.model)).toBe(after.documents.reduce((n, d) => n + d.chunks, 0));
    expect([...index.vectors.keys()]).toEqual(['ollama:mxbai-embed-large']);
    expect((fx.requestsTo('/api/embed').at(-1)!.body as { model: string }).model).toBe(mxbai.model);
  });

  it('says which embedding model is missing and how to get it; Ollama not running is said too', async () => {
    await svc.setEmbedder({ backend: 'ollama', model: 'all-minilm' });
    const { base: b0 } = await svc.attachPath({ conversation: 'c_five' }, folder());
    await svc.indexer.idle();
    const b = await base(b0.id);
    expect(b.error?.message).toMatch(/all-minilm is not on your Ollama server\. Pull all-minilm\?/);
    expect(b.error?.details).toMatchObject({ action: { kind: 'pull', model: 'all-minilm' } });
    // The documents were read and chunked: they wait for a model, and the chat can still use them by their words.
    expect(doc(b, 'guide.md')).toMatchObject({ state: 'embedding' });

    // Ollama gone: indexing stops saying so, and goes on once it is back.
    const gone = await startOllamaFixture({ models: [] });
    await gone.stop();
    await app.services.settings.update({ ollamaHost: gone.url });
    try {
      await svc.setEmbedder(nomic);
      await svc.indexer.idle();
      expect((await base(b0.id)).error?.message).toMatch(/Ollama is not running at .*ollama serve/);
    } finally {
      await app.services.settings.update({ ollamaHost: fx.url });
    }
    svc.resume(b0.id);
    await svc.indexer.idle();
    expect((await base(b0.id)).error).toBeUndefined();
    expect(doc(await base(b0.id), 'guide.md').state).toBe('ready');
    expect((await svc.bases()).embedder).toEqual(nomic);
  });

  it('refuses a folder of too many files before any work; a damaged and a 2 GB file each get their words', async () => {
    const big = join(dir.path, 'big');
    mkdirSync(big);
    for (let i = 0; i <= 50; i++) writeFileSync(join(big, `${i}.txt`), '');
    const err = await svc.attachPath({ conversation: 'c_six' }, big).then(
      () => expect.fail('should have failed'),
      (e: Error) => e,
    );
    expect(err.message).toMatch(/more than 50 files: attach a smaller folder/);
    expect(index.sources()).toEqual([]);

    const odd = join(dir.path, 'odd');
    mkdirSync(odd);
    writeFileSync(join(odd, 'broken.pdf'), '%PDF-1.7\nthis is not really a pdf');
    writeFileSync(join(odd, 'huge.txt'), '');
    truncateSync(join(odd, 'huge.txt'), 2 * 1024 ** 3);
    await svc.setEmbedder(nomic);
    const { base: b0 } = await svc.attachPath({ conversation: 'c_six' }, odd);
    await svc.indexer.idle();
    const b = await base(b0.id);
    expect(doc(b, 'broken.pdf')).toMatchObject({ state: 'error', error: { details: { reason: 'damaged' } } });
    expect(doc(b, 'huge.txt').error?.message).toMatch(/too large to add \(2048 MB/);
  });

  it('retrieves whole documents when they fit the budget, the best passages with citations when not', async () => {
    await svc.setEmbedder(nomic);
    const { base: b0 } = await svc.attachPath({ conversation: 'c_seven' }, folder());
    await svc.indexer.idle();
    const whole = await svc.retrieve({
      conversation: 'c_seven',
      bases: [],
      question: 'the vault code?',
      budgetTokens: 100_000,
    });
    expect(whole?.context.mode).toBe('whole');
    expect(whole?.context.citations.map((c) => c.name).sort()).toEqual(['guide.md', 'memo.docx', 'report.pdf']);
    expect(whole?.system).toContain('Cite the passages you use as [n].');

    const small = await svc.retrieve({
      conversation: 'c_seven',
      bases: [],
      question: 'What is the vault code?',
      budgetTokens: 400,
    });
    expect(small?.context.mode).toBe('retrieved');
    const n = small!.context.citations.findIndex((c) => c.excerpt.includes('7431'));
    expect(n).toBeGreaterThanOrEqual(0);
    expect(small!.system).toContain(`[${n + 1}] guide.md, "Guide › Codes"`);
    expect(small!.context.citations.every((c) => c.excerpt.length <= 300)).toBe(true);
    expect(svc.passage(small!.context.citations[n].chunk).text).toContain('7431');
    expect(await svc.retrieve({ conversation: 'c_none', bases: [], question: 'x', budgetTokens: 100 })).toBeUndefined();
    void b0;
  });

  it('keeps uploaded files under the data folder, and removes the copy with its source', async () => {
    await svc.setEmbedder(nomic);
    const data = Buffer.from('# Upload\n\nThe ferry leaves at noon.').toString('base64');
    const { upload } = await svc.uploadPart(undefined, data.slice(0, 8));
    await svc.uploadPart(upload, data.slice(8));
    const { base: b0 } = await svc.attachUpload({ conversation: 'c_eight' }, upload, 'ferry.md');
    await svc.indexer.idle();
    const b = await base(b0.id);
    expect(b.sources[0]).toMatchObject({ kind: 'upload' });
    expect(b.sources[0].path.startsWith(join(app.dataDir, 'documents', 'uploads'))).toBe(true);
    expect(doc(b, 'ferry.md').state).toBe('ready');
    await svc.remove(b.sources[0].id);
    expect((await base(b0.id)).documents).toEqual([]);
  });
});
