import type { Embedder, KnowledgeBase, Passage } from '@shared/contract/documents';
import { AppError } from '@shared/errors';
import { fuse } from '../../electron/main/services/documents/fuse';
import { assembleBases } from '../../electron/main/services/documents/index-bases';
import { searchHits } from '../../electron/main/services/documents/index-search';
import { embedderKey, type DocIndexPort, type DocumentRow } from '../../electron/main/services/documents/ports';
import type { DocChunk } from '../../electron/main/services/documents/types';

/**
 * A DocIndexPort in memory, for the indexer's tests until (and beside) the libsql index: the same contract,
 * cosine over every vector and a word-overlap ranking in place of BM25. Counts what is written.
 */
export class MemoryDocIndex implements DocIndexPort {
  private n = 0;
  private readonly baseRows = new Map<string, { name: string; conversation?: string }>();
  private readonly sourceRows = new Map<string, { base: string; kind: 'file' | 'folder' | 'upload'; path: string }>();
  private readonly docs = new Map<string, DocumentRow>();
  private readonly chunks = new Map<number, DocChunk & { id: number; document: string }>();
  readonly vectors = new Map<string, Map<number, number[]>>();
  private embedder?: Embedder;
  private next?: Embedder;
  /** Vectors written, per embedder key (a re-embedded chunk counts again). */
  readonly written = new Map<string, number>();

  private id(prefix: string) {
    return `${prefix}_${(++this.n).toString(36)}`;
  }
  createBase(name: string, conversation?: string) {
    const id = this.id('b');
    this.baseRows.set(id, { name, conversation });
    return id;
  }
  renameBase(id: string, name: string) {
    this.baseRows.get(id)!.name = name;
  }
  deleteBase(id: string) {
    for (const [s, r] of this.sourceRows) if (r.base === id) this.removeSource(s);
    this.baseRows.delete(id);
  }
  conversationBase(conversation: string) {
    for (const [id, b] of this.baseRows) if (b.conversation === conversation) return id;
    return this.createBase('This conversation', conversation);
  }
  bases(filter: { conversation?: string; ids?: string[] } = {}): KnowledgeBase[] {
    const rows = [...this.baseRows]
      .filter(([id, b]) =>
        filter.ids ? filter.ids.includes(id) : !b.conversation || b.conversation === filter.conversation,
      )
      .map(([id, b]) => ({ id, name: b.name, conversation: b.conversation ?? null }));
    return assembleBases(rows, this.sources(), this.documents({}), () => true, {
      embedder: this.embedder,
      counts: this.chunkCounts(this.embedder),
      ...(this.next ? { next: { embedder: this.next, counts: this.chunkCounts(this.next) } } : {}),
    });
  }
  /** Chunks per document, and how many have a vector under the embedder (as the store counts them). */
  private chunkCounts(embedder?: Embedder) {
    const vs = embedder ? this.vectors.get(embedderKey(embedder)) : undefined;
    const out = new Map<string, { n: number; done: number }>();
    for (const c of this.chunks.values()) {
      const n = out.get(c.document) ?? { n: 0, done: 0 };
      n.n++;
      if (vs?.has(c.id)) n.done++;
      out.set(c.document, n);
    }
    return out;
  }
  addSource(base: string, kind: 'file' | 'folder' | 'upload', path: string) {
    const id = this.id('s');
    this.sourceRows.set(id, { base, kind, path });
    return id;
  }
  removeSource(id: string) {
    const s = this.sourceRows.get(id)!;
    for (const d of this.documents({ source: id })) this.deleteDocument(d.id);
    this.sourceRows.delete(id);
    return { base: s.base, uploads: s.kind === 'upload' ? [s.path] : [] };
  }
  sources() {
    return [...this.sourceRows].map(([id, s]) => ({ id, ...s }));
  }
  upsertDocument(row: Omit<DocumentRow, 'id'> & { id?: string }) {
    const id = row.id ?? this.id('d');
    this.docs.set(id, { ...row, id });
    return id;
  }
  document(id: string) {
    const d = this.docs.get(id);
    return d && { ...d };
  }
  documents(f: { base?: string; source?: string; state?: DocumentRow['state'][] }) {
    return [...this.docs.values()]
      .filter((d) => (!f.base || d.base === f.base) && (!f.source || d.source === f.source))
      .filter((d) => !f.state || f.state.includes(d.state))
      .map((d) => ({ ...d }));
  }
  deleteDocument(id: string) {
    this.putChunks(id, []);
    this.docs.delete(id);
  }
  putChunks(document: string, chunks: DocChunk[], from = 0) {
    if (from === 0) for (const [id, c] of this.chunks) if (c.document === document) this.dropChunk(id);
    for (const c of chunks) {
      const id = ++this.n;
      this.chunks.set(id, { ...c, id, document });
    }
  }
  private dropChunk(id: number) {
    this.chunks.delete(id);
    for (const vs of this.vectors.values()) vs.delete(id);
  }
  pendingChunks(embedder: string, bases: string[], limit: number) {
    const vs = this.vectors.get(embedder);
    return [...this.chunks.values()]
      .filter((c) => bases.includes(this.docs.get(c.document)!.base) && !vs?.has(c.id))
      .slice(0, limit)
      .map((c) => ({ id: c.id, document: c.document, text: c.text }));
  }
  countChunks(bases: string[], embedder?: string) {
    const mine = [...this.chunks.values()].filter((c) => bases.includes(this.docs.get(c.document)!.base));
    const vs = embedder ? this.vectors.get(embedder) : undefined;
    return { total: mine.length, embedded: mine.filter((c) => vs?.has(c.id)).length };
  }
  putVectors(embedder: string, _dim: number, vectors: { chunk: number; vector: number[] }[]) {
    const vs = this.vectors.get(embedder) ?? new Map<number, number[]>();
    for (const v of vectors) if (this.chunks.has(v.chunk)) vs.set(v.chunk, v.vector);
    this.vectors.set(embedder, vs);
    this.written.set(embedder, (this.written.get(embedder) ?? 0) + vectors.length);
  }
  dropEmbedder(embedder: string) {
    this.vectors.delete(embedder);
  }
  chunkText(document: string) {
    return [...this.chunks.values()]
      .filter((c) => c.document === document)
      .map((c) => c.text)
      .join('\n\n');
  }
  firstChunk(document: string) {
    return [...this.chunks.values()].find((c) => c.document === document)?.id;
  }
  search(bases: string[], query: string, qv: number[] | undefined, embedder: string | undefined, limit: number) {
    const mine = [...this.chunks.values()].filter((c) => bases.includes(this.docs.get(c.document)!.base));
    const vs = embedder ? this.vectors.get(embedder) : undefined;
    const byVector = qv && vs ? mine.filter((c) => vs.has(c.id)).map((c) => ({ c, s: dot(qv, vs.get(c.id)!) })) : [];
    const words = new Set(query.toLowerCase().match(/\w+/g) ?? []);
    const byText = mine
      .map((c) => ({ c, s: (c.text.toLowerCase().match(/\w+/g) ?? []).filter((w) => words.has(w)).length }))
      .filter((x) => x.s > 0);
    const ranked = (xs: { c: { id: number }; s: number }[]) =>
      xs
        .sort((a, b) => b.s - a.s)
        .slice(0, limit)
        .map((x) => ({ id: x.c.id }));
    // As the store gives them: words matched as the text score, the (normalised) vectors' dot as the similarity.
    const textScore = new Map(byText.map((x) => [x.c.id, x.s]));
    const fused = fuse<number, { id: number }>(ranked(byVector), ranked(byText)).slice(0, limit);
    const sims = new Map(qv && vs ? fused.filter((f) => vs.has(f.id)).map((f) => [f.id, dot(qv, vs.get(f.id)!)]) : []);
    return searchHits(fused, new Map(fused.map((f) => [f.id, this.passage(f.id)])), textScore, sims);
  }
  passage(chunk: number): Passage {
    const c = this.chunks.get(chunk);
    if (!c) throw new AppError('not_found', 'This passage is no longer in the index.');
    const d = this.docs.get(c.document)!;
    return {
      chunk,
      document: d.id,
      name: d.name,
      path: d.path,
      ...(c.page ? { page: c.page } : {}),
      ...(c.headings.length ? { heading: c.headings.join(' › ') } : {}),
      text: c.text,
    };
  }
  getEmbedder() {
    return this.embedder;
  }
  setEmbedder(e: Embedder | undefined) {
    this.embedder = e;
  }
  getNextEmbedder() {
    return this.next;
  }
  setNextEmbedder(e: Embedder | undefined) {
    this.next = e;
  }
}

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
