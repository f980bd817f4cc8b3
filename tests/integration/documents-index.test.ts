import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '@shared/errors';
import { SCHEMA_VERSION, userVersion } from '../../electron/main/services/chat/storage/db-open';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { IndexStore } from '../../electron/main/services/documents/index-store';
import type { DocumentRow } from '../../electron/main/services/documents/ports';
import type { DocChunk } from '../../electron/main/services/documents/types';
import { createLogger } from '../../electron/main/services/log';
import { tempDir } from '../helpers/app';

const OLLAMA = 'ollama:nomic-embed-text';
const LOCAL = 'local:bge-small';

/** A chunk as the chunker gives it, its range in a text made of the chunks one after another. */
function chunks(texts: string[], opts: { headings?: string[]; page?: number } = {}): DocChunk[] {
  let at = 0;
  return texts.map((text) => {
    const c = { text, headings: opts.headings ?? [], page: opts.page, start: at, end: at + text.length, tokens: 5 };
    at += text.length;
    return c;
  });
}

/** A unit vector of `dim` dimensions along axis `i`, a little of axis `j` mixed in. */
function axis(dim: number, i: number, j = i, mix = 0): number[] {
  const v = Array.from({ length: dim }, (_, k) => (k === i ? 1 : 0));
  v[j] += mix;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a refusal');
};

/** The index on a real chat database (libsql file in a temp dir), through the chat store's handle. */
describe('documents index: bases, documents, chunks, vectors, hybrid search', () => {
  const dir = tempDir();
  let chat: ChatStore;
  let index: IndexStore;
  const open = (file = join(dir.path, 'chats.sqlite')) => {
    chat = new ChatStore({ file }, createLogger());
    index = new IndexStore(chat);
  };
  beforeEach(() => open(join(dir.path, `chats-${Math.random().toString(36).slice(2)}.sqlite`)));
  afterEach(() => chat.close());
  afterAll(() => dir.remove());

  function addDoc(base: string, name: string, texts: string[], extra: Partial<DocumentRow> = {}) {
    const source = index.addSource(base, 'file', join(dir.path, name));
    const id = index.upsertDocument({
      base,
      source,
      name,
      file: join(dir.path, name),
      path: name,
      kind: 'markdown',
      sizeBytes: 100,
      mtimeMs: 1,
      state: 'ready',
      pinned: false,
      tokens: 20,
      ...extra,
    });
    index.putChunks(id, chunks(texts, { headings: ['Guide', 'Setup'], page: 2 }));
    return { id, source, chunks: index.pendingChunks('none', [base], 10_000).filter((c) => c.document === id) };
  }

  it('creates, renames, lists and deletes bases; sources and documents in them', () => {
    const b = index.createBase('Zeta notes');
    const a = index.createBase('alpha papers');
    const own = index.conversationBase('c_one');
    expect(index.conversationBase('c_one')).toBe(own);
    index.renameBase(b, 'beta notes');
    // Named bases by name; a conversation's own only when asked for, after them.
    expect(index.bases().map((x) => x.name)).toEqual(['alpha papers', 'beta notes']);
    expect(index.bases({ conversation: 'c_one' }).map((x) => [x.id, x.conversation])).toEqual([
      [a, undefined],
      [b, undefined],
      [own, 'c_one'],
    ]);
    expect(index.bases({ ids: [own] }).map((x) => x.id)).toEqual([own]);

    writeFileSync(join(dir.path, 'here.md'), '# here');
    const { id: doc, source } = addDoc(a, 'here.md', ['One.', 'Two.'], { pages: 3 });
    const upload = index.addSource(a, 'upload', join(dir.path, 'uploads', 'u1.pdf'));
    const base = index.bases({ ids: [a] })[0];
    expect(base.sources).toEqual([
      { id: source, kind: 'file', path: join(dir.path, 'here.md'), exists: true },
      { id: upload, kind: 'upload', path: join(dir.path, 'uploads', 'u1.pdf'), exists: false },
    ]);
    expect(base.documents).toEqual([
      {
        id: doc,
        source,
        name: 'here.md',
        path: 'here.md',
        kind: 'markdown',
        sizeBytes: 100,
        state: 'ready',
        chunks: 2,
        chunksDone: 0,
        tokens: 20,
        pages: 3,
        pinned: false,
      },
    ]);

    // Upsert by id, and by the same file under the same source.
    const row = index.document(doc)!;
    expect(index.upsertDocument({ ...row, id: doc, pinned: true })).toBe(doc);
    const { id: _id, ...noId } = row;
    const error = { code: 'invalid_input' as const, message: 'This PDF has no text.' };
    expect(index.upsertDocument({ ...noId, state: 'error', error })).toBe(doc);
    expect(index.document(doc)).toMatchObject({ pinned: false, state: 'error', error });
    expect(index.documents({ state: ['error'] }).map((d) => d.id)).toEqual([doc]);
    expect(index.documents({ base: b })).toEqual([]);
    expect(index.documents({ source }).map((d) => d.id)).toEqual([doc]);

    const copy = index.upsertDocument({ ...noId, source: upload, file: join(dir.path, 'uploads', 'u1.pdf') });
    expect(index.removeSource(upload)).toEqual({ base: a, uploads: [join(dir.path, 'uploads', 'u1.pdf')] });
    expect(index.document(copy)).toBeUndefined();
    expect(index.removeSource(source)).toEqual({ base: a, uploads: [] });
    expect(index.sources()).toEqual([]);

    index.deleteBase(b);
    expect(refusal(() => index.renameBase(b, 'x'))).toMatchObject({ code: 'not_found' });
    expect(refusal(() => index.addSource(b, 'file', '/x'))).toMatchObject({ code: 'not_found' });
    expect(refusal(() => index.passage(999_999))).toMatchObject({ code: 'not_found' });
  });

  it('stores chunks and their vectors; a document is rebuilt from its chunks; deleting takes everything with it', () => {
    const base = index.createBase('Docs');
    const { id: doc, chunks: pending } = addDoc(base, 'a.md', ['Alpha beta. ', 'Gamma delta.']);
    expect(pending.map((c) => c.text)).toEqual(['Alpha beta. ', 'Gamma delta.']);
    expect(index.firstChunk(doc)).toBe(pending[0].id);
    // Overlap is left out when the text is rebuilt.
    index.putChunks(doc, [
      { text: 'One two three.', headings: [], start: 0, end: 14, tokens: 4 },
      { text: 'three. Four five.', headings: [], start: 8, end: 25, tokens: 4 },
    ]);
    expect(index.chunkText(doc)).toBe('One two three. Four five.');
    const [c1, c2] = index.pendingChunks(OLLAMA, [base], 10);
    expect(index.countChunks([base], OLLAMA)).toEqual({ total: 2, embedded: 0 });

    index.putVectors(OLLAMA, 4, [{ chunk: c1.id, vector: axis(4, 0) }]);
    index.putVectors(LOCAL, 8, [
      { chunk: c1.id, vector: axis(8, 0) },
      { chunk: c2.id, vector: axis(8, 1) },
    ]);
    expect(index.pendingChunks(OLLAMA, [base], 10).map((c) => c.id)).toEqual([c2.id]);
    expect(index.pendingChunks(LOCAL, [base], 10)).toEqual([]);
    expect(index.countChunks([base], OLLAMA)).toEqual({ total: 2, embedded: 1 });
    expect(index.countChunks([base], LOCAL)).toEqual({ total: 2, embedded: 2 });
    // A vector for a chunk gone meanwhile is skipped; a wrong dimension is refused.
    index.putVectors(OLLAMA, 4, [{ chunk: 987_654, vector: axis(4, 1) }]);
    expect(() => index.putVectors(OLLAMA, 4, [{ chunk: c2.id, vector: axis(5, 1) }])).toThrow();

    index.setEmbedder({ backend: 'ollama', model: 'nomic-embed-text' });
    index.setNextEmbedder({ backend: 'local', model: 'bge-small' });
    const shown = index.bases({ ids: [base] })[0];
    expect(shown.documents[0]).toMatchObject({ chunks: 2, chunksDone: 1 });
    expect(shown.reembedding).toEqual({ embedder: { backend: 'local', model: 'bge-small' }, done: 2, total: 2 });

    // Search under both embedders, then one dropped: the other serves on.
    expect(index.search([base], 'zzz', axis(4, 0), OLLAMA, 5)[0]).toMatchObject({ chunk: c1.id, vectorRank: 1 });
    expect(index.search([base], 'zzz', axis(8, 1), LOCAL, 5)[0]).toMatchObject({ chunk: c2.id, vectorRank: 1 });
    index.dropEmbedder(OLLAMA);
    expect(index.countChunks([base], OLLAMA)).toEqual({ total: 2, embedded: 0 });
    expect(index.search([base], 'zzz', axis(4, 0), OLLAMA, 5)).toEqual([]);
    expect(index.search([base], 'zzz', axis(8, 1), LOCAL, 5)[0].chunk).toBe(c2.id);

    // Re-chunking drops the old chunks' vectors and FTS rows; deleting the base drops the rest.
    index.putChunks(doc, chunks(['Fresh words here.']));
    expect(index.countChunks([base], LOCAL)).toEqual({ total: 1, embedded: 0 });
    expect(index.search([base], 'gamma four', undefined, undefined, 5)).toEqual([]);
    const raw = chat.db.db;
    const tbl = (raw.prepare(`SELECT tbl FROM doc_embedders WHERE key = ?`).get(LOCAL) as { tbl: string }).tbl;
    index.putVectors(LOCAL, 8, [{ chunk: index.firstChunk(doc)!, vector: axis(8, 2) }]);
    expect(raw.prepare(`SELECT count(*) AS n FROM ${tbl}`).get()).toMatchObject({ n: 1 });
    index.deleteBase(base);
    for (const t of [tbl, 'doc_chunks', 'doc_documents', 'doc_sources'])
      expect(raw.prepare(`SELECT count(*) AS n FROM ${t}`).get()).toMatchObject({ n: 0 });
    expect(
      raw.prepare(`SELECT count(*) AS n FROM doc_chunks_fts WHERE doc_chunks_fts MATCH 'fresh'`).get(),
    ).toMatchObject({
      n: 0,
    });
  });

  it('finds a planted passage by meaning and by words, fuses both, keeps to the bases asked', () => {
    const base = index.createBase('Manual');
    const other = index.createBase('Other');
    const { chunks: cs } = addDoc(base, 'manual.md', [
      'The boiler pressure should read 1.5 bar when cold.',
      'Bleed the radiators every autumn.',
      'The warranty lasts five years from installation.',
    ]);
    const { chunks: os } = addDoc(other, 'other.md', ['The boiler in the other house is electric.']);
    index.putVectors(OLLAMA, 4, [
      { chunk: cs[0].id, vector: axis(4, 0) },
      { chunk: cs[1].id, vector: axis(4, 1) },
      { chunk: cs[2].id, vector: axis(4, 2) },
      { chunk: os[0].id, vector: axis(4, 0) },
    ]);
    // By meaning only: no word in common.
    const byMeaning = index.search([base], 'how long is it covered', axis(4, 2, 3, 0.2), OLLAMA, 2);
    expect(byMeaning.map((h) => [h.chunk, h.vectorRank, h.textRank])).toEqual([
      [cs[2].id, 1, undefined],
      [cs[0].id, 2, undefined],
    ]);
    // Each with how near it is (retrieval's relevance floor), the nearest the nearer.
    expect(byMeaning[0].similarity).toBeGreaterThan(byMeaning[1].similarity!);
    // By words only (no vector).
    const byWords = index.search([base], 'radiators?', undefined, undefined, 5);
    expect(byWords).toEqual([
      {
        chunk: cs[1].id,
        document: expect.stringMatching(/^d_/),
        name: 'manual.md',
        path: 'manual.md',
        page: 2,
        heading: 'Guide › Setup',
        text: 'Bleed the radiators every autumn.',
        score: 1 / 61,
        textRank: 1,
        textScore: expect.any(Number),
      },
    ]);
    // Fused: the passage both halves find comes first, though it is second by meaning.
    const fused = index.search([base], 'boiler pressure', axis(4, 1, 0, 0.9), OLLAMA, 3);
    expect(fused.map((h) => [h.chunk, h.vectorRank, h.textRank])).toEqual([
      [cs[0].id, 2, 1],
      [cs[1].id, 1, undefined],
      [cs[2].id, 3, undefined],
    ]);
    // The other base's boiler is never a hit of this one, and is of both.
    expect(index.search([base], 'boiler electric', axis(4, 0), OLLAMA, 8).map((h) => h.chunk)).not.toContain(os[0].id);
    expect(index.search([base, other], 'electric', undefined, undefined, 8).map((h) => h.chunk)).toEqual([os[0].id]);
    expect(index.passage(cs[1].id)).toMatchObject({ heading: 'Guide › Setup', page: 2, name: 'manual.md' });
  });

  it('never throws on FTS5 syntax or punctuation in a question', () => {
    const base = index.createBase('Syntax');
    const { chunks: cs } = addDoc(base, 'x.md', ['Use NEAR the pump; "quoted" words and minus-signs.']);
    for (const q of [
      '"',
      '"unbalanced',
      'pump*',
      'NEAR(pump words',
      'NEAR(a b, 2)',
      '-pump',
      'a AND',
      'OR',
      '^',
      ':',
      'text:pump',
      '(',
      '***',
      '…¿?',
      'pump OR',
    ])
      expect(() => index.search([base], q, undefined, undefined, 5), q).not.toThrow();
    expect(index.search([base], '"pump*"', undefined, undefined, 5).map((h) => h.chunk)).toEqual([cs[0].id]);
    expect(index.search([base], 'Minus-Signs!', undefined, undefined, 5).map((h) => h.chunk)).toEqual([cs[0].id]);
  });

  it('asks the vector index past the exact-scan size, filtering to the bases', () => {
    const base = index.createBase('Big');
    const small = index.createBase('Small');
    const texts = Array.from({ length: 2_100 }, (_, i) => `Filler passage number ${i}.`);
    const { chunks: cs } = addDoc(base, 'big.md', texts);
    const { chunks: ss } = addDoc(small, 'small.md', ['The small base passage.']);
    // Signed random unit vectors, as embeddings are (seeded: the same every run).
    const dim = 16;
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
    const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
    const random = () => unit(Array.from({ length: dim }, rnd));
    index.putVectors(
      OLLAMA,
      dim,
      cs.map((c) => ({ chunk: c.id, vector: random() })),
    );
    const target = random();
    index.putVectors(OLLAMA, dim, [{ chunk: ss[0].id, vector: target }]);
    const planted = cs[1234];
    // Written again (a re-embed): the index follows the new vector.
    index.putVectors(OLLAMA, dim, [{ chunk: planted.id, vector: unit(target.map((x) => x + rnd() * 0.05)) }]);
    const hits = index.search([base], 'nothing alike', target, OLLAMA, 3);
    expect(hits[0]).toMatchObject({ chunk: planted.id, vectorRank: 1 });
    // Words in every chunk are left out of the BM25 half once a rarer one matches: only that one's chunk comes.
    expect(index.search([base], 'Filler passage number 1234', undefined, undefined, 3).map((h) => h.chunk)).toEqual([
      planted.id,
    ]);
    // The small base is a tiny part of the index: found all the same.
    expect(index.search([small], 'zzz', random(), OLLAMA, 3).map((h) => h.chunk)).toEqual([ss[0].id]);
    // Words in more chunks than the BM25 half reads (2,000): it answers from those it read, of the bases asked only.
    const common = index.search([base], 'filler passage', undefined, undefined, 5);
    expect(common.map((h) => h.textRank)).toEqual([1, 2, 3, 4, 5]);
    expect(common.every((h) => cs.some((c) => c.id === h.chunk))).toBe(true);
    // The small base's chunk comes after all those in the index: still its base's match for that common word.
    expect(index.search([small], 'passage', undefined, undefined, 3).map((h) => h.chunk)).toEqual([ss[0].id]);
    expect(index.search([small, base], 'small passage', undefined, undefined, 3)[0].chunk).toBe(ss[0].id);
  });

  it('keeps everything across a reopen, and migrates a database of the first schema', () => {
    const file = join(dir.path, 'reopen.sqlite');
    chat.close();
    open(file);
    const base = index.createBase('Kept');
    const { chunks: cs } = addDoc(base, 'k.md', ['Kept passage about turbines.']);
    index.putVectors(LOCAL, 4, [{ chunk: cs[0].id, vector: axis(4, 3) }]);
    index.setEmbedder({ backend: 'local', model: 'bge-small' });
    chat.close();
    open(file);
    expect(index.getEmbedder()).toEqual({ backend: 'local', model: 'bge-small' });
    expect(index.getNextEmbedder()).toBeUndefined();
    expect(index.bases()[0].documents[0]).toMatchObject({ chunks: 1, chunksDone: 1 });
    expect(index.search([base], 'turbines', axis(4, 3), LOCAL, 3)[0]).toMatchObject({
      chunk: cs[0].id,
      vectorRank: 1,
      textRank: 1,
    });
    chat.close();

    const old = join(dir.path, 'schema-1.sqlite');
    copyFileSync(join(import.meta.dirname, '../fixtures/chat-db/schema-1.sqlite'), old);
    open(old);
    expect(chat.list().map((c) => c.title)).toEqual(['Quantization basics', 'Router chat with a tool']);
    const b = index.createBase('After the upgrade');
    addDoc(b, 'u.md', ['Upgraded.']);
    expect(index.search([b], 'upgraded', undefined, undefined, 1)).toHaveLength(1);
    chat.close();
    const raw = new Database(old);
    expect(userVersion(raw)).toBe(SCHEMA_VERSION);
    raw.close();
    open(old);
  });
});
