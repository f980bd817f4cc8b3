import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { IndexStore } from '../../electron/main/services/documents/index-store';
import { textSearch } from '../../electron/main/services/documents/index-queries';
import { nearestChunks, vectorTable } from '../../electron/main/services/documents/vector-table';
import { createLogger } from '../../electron/main/services/log';
import { figure, percentile, type BenchContext, type Figure } from '../lib/measure';

const DIM = 768;
const EMBEDDER = 'ollama:nomic-embed-text';
const QUERIES = 200;
const LIMIT = 8;

/**
 * Retrieval over 100,000 chunks (quick: 10,000; `HUBDESK_BENCH_DOC_CHUNKS` sets another count): generated text in
 * 100 documents, random unit vectors of 768 dimensions written through the index in batches, then `search` (the
 * vector index and BM25, fused) for 200 questions, p50 and p99 per question. Beside it, the floor: the same
 * question vectors through `vector_top_k` alone.
 */
export async function documentsRetrieval(ctx: BenchContext): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-docs-'));
  const chat = new ChatStore({ file: join(dir, 'chats.sqlite') }, createLogger());
  try {
    const total = Number(process.env.HUBDESK_BENCH_DOC_CHUNKS) || (ctx.quick ? 10_000 : 100_000);
    const docs = 100;
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    const syll = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vel', 'qu', 'dor', 'ni', 'pha', 'zen', 'tri', 'mo', 'gu'];
    const words = Array.from({ length: 4_000 }, (_, i) => syll[i % 15] + syll[Math.floor(i / 15) % 15] + (i >> 8));
    // A few words everywhere, most rare (Zipf-like), as in prose.
    const word = () => words[Math.floor(words.length * rnd() ** 3)];
    const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
    const unit = () => {
      const v = Array.from({ length: DIM }, () => rnd() - 0.5);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };

    const index = new IndexStore(chat);
    const db = chat.db.db;
    // Building the data set is not what is measured: no fsync while it is written.
    db.pragma('synchronous = OFF');
    const base = index.createBase('Bench');
    const t0 = performance.now();
    for (let d = 0; d < docs; d++) {
      const source = index.addSource(base, 'file', `/bench/doc-${d}.md`);
      const id = index.upsertDocument({
        base,
        source,
        name: `doc-${d}.md`,
        file: `/bench/doc-${d}.md`,
        path: `doc-${d}.md`,
        kind: 'markdown',
        sizeBytes: 0,
        mtimeMs: 0,
        state: 'ready',
        pinned: false,
        tokens: 0,
      });
      const n = Math.floor(total / docs) + (d < total % docs ? 1 : 0);
      index.putChunks(
        id,
        Array.from({ length: n }, (_, i) => {
          const text = sentence(80);
          return { text, headings: [`Part ${i >> 4}`], start: i * 1000, end: i * 1000 + text.length, tokens: 120 };
        }),
      );
    }
    ctx.log(`wrote ${total.toLocaleString('en-US')} chunks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = performance.now();
    const stored: number[][] = [];
    let done = 0;
    for (;;) {
      const batch = index.pendingChunks(EMBEDDER, [base], 256);
      if (!batch.length) break;
      const vectors = batch.map((c) => ({ chunk: c.id, vector: unit() }));
      if (stored.length < QUERIES) stored.push(vectors[0].vector);
      index.putVectors(EMBEDDER, DIM, vectors);
      done += batch.length;
      if (done % 10_240 < 256) ctx.log(`vectors: ${done.toLocaleString('en-US')}`);
    }
    const buildS = (performance.now() - t1) / 1000;
    ctx.log(`wrote the vectors in ${buildS.toFixed(1)} s (${(total / buildS).toFixed(0)} vectors/s with the index)`);
    db.pragma('synchronous = FULL');

    // Questions: a few words, and a vector near a stored chunk's (every other one) or anywhere.
    const questions = Array.from({ length: QUERIES }, (_, i) => {
      const near = stored[i % stored.length];
      const vector = i % 2 ? unit() : near.map((x) => x + (rnd() - 0.5) * 0.02);
      return { text: sentence(3 + (i % 5)), vector };
    });
    const t = vectorTable(db, EMBEDDER)!;
    const topK = db.prepare(
      `SELECT v.chunk FROM vector_top_k('${t.tbl}_idx', vector32(?1), ?2) AS t JOIN ${t.tbl} v ON v.rowid = t.id`,
    );
    const runs = ctx.runs(3, 1);
    const p50: number[] = [];
    const p99: number[] = [];
    const floor99: number[] = [];
    const vector99: number[] = [];
    const text99: number[] = [];
    for (let r = 0; r < runs; r++) {
      const times: number[] = [];
      const floor: number[] = [];
      const halves = { vector: [] as number[], text: [] as number[] };
      for (const q of questions) {
        let s = performance.now();
        index.search([base], q.text, q.vector, EMBEDDER, LIMIT);
        times.push(performance.now() - s);
        s = performance.now();
        topK.all(JSON.stringify(q.vector), LIMIT * 8);
        floor.push(performance.now() - s);
        s = performance.now();
        nearestChunks(db, t, [base], q.vector, LIMIT * 2);
        halves.vector.push(performance.now() - s);
        s = performance.now();
        textSearch(db, [base], q.text, LIMIT * 2);
        halves.text.push(performance.now() - s);
      }
      vector99.push(percentile(halves.vector, 99));
      text99.push(percentile(halves.text, 99));
      p50.push(percentile(times, 50));
      p99.push(percentile(times, 99));
      floor99.push(percentile(floor, 99));
    }
    const label = `${total.toLocaleString('en-US')} chunks, ${DIM} dims`;
    return [
      figure(`documents retrieval p50 per question: ${label}`, 'ms', p50, { note: `${QUERIES} questions a run` }),
      figure(`documents retrieval p99 per question: ${label}`, 'ms', p99, { target: '≤ 20 ms' }),
      figure(`documents vector_top_k alone p99 (the floor): ${label}`, 'ms', floor99, {
        note: `k = ${LIMIT * 8}, as search asks`,
      }),
      figure(`documents retrieval, vector half alone p99: ${label}`, 'ms', vector99),
      figure(`documents retrieval, BM25 half alone p99: ${label}`, 'ms', text99),
      figure(`documents vectors written per second with the index: ${label}`, '/s', [total / buildS], {
        note: 'batches of 256, one transaction each',
      }),
    ];
  } finally {
    chat.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
