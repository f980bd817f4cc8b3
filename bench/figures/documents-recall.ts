import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder, SearchHit } from '@shared/contract/documents';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { ollamaEngines } from '../../tests/helpers/engines';
import { createEmbedder } from '../../electron/main/services/documents/embedder';
import { IndexStore } from '../../electron/main/services/documents/index-store';
import { readDocument } from '../../electron/main/services/documents/extract/read';
import { Indexer } from '../../electron/main/services/documents/indexer';
import { embedderKey } from '../../electron/main/services/documents/ports';
import { createLogger } from '../../electron/main/services/log';
import { OllamaService } from '../../electron/main/services/ollama/service';
import { plantedCorpus, type PlantedQuestion } from '../../tests/fixtures/documents/corpus';
import { startOllamaFixture } from '../../tests/fixtures/ollama';
import { figure, type BenchContext, type Figure } from '../lib/measure';

const K = 5;
const EMBEDDER: Embedder = { backend: 'ollama', model: 'nomic-embed-text' };

/**
 * Documents (#31): retrieval quality on the planted-facts corpus (tests/fixtures/documents/corpus.ts): 40 Markdown
 * documents with 5 facts each, indexed by HubDesk's indexer into the libsql index (the Ollama fixture's
 * meaning-like embeddings), then every question that rewords a fact asked three ways through the same `search`:
 * hybrid (vectors and BM25 fused), BM25 alone (no query vector) and vectors alone (no query text). Recall@5: the
 * share of questions whose fact is in one of the top 5 passages. Deterministic, so one run.
 */
export async function documentsRecall(ctx: BenchContext): Promise<Figure[]> {
  const corpus = plantedCorpus({ documents: 40, factsPerDocument: 5, seed: 31 });
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-recall-'));
  const fixture = await startOllamaFixture();
  fixture.addEmbeddingModel(EMBEDDER.model);
  const log = createLogger();
  const chat = new ChatStore({ file: join(dir, 'chat.sqlite') }, log);
  try {
    const ollama = new OllamaService({ host: () => fixture.url, keyedFetch: fetch, log });
    const embed = createEmbedder(ollamaEngines(ollama, log));
    const index = new IndexStore(chat);
    const base = index.createBase('Planted facts');
    const source = index.addSource(base, 'folder', dir);
    for (const f of corpus.files) {
      const file = join(dir, f.name);
      writeFileSync(file, f.text);
      const st = statSync(file);
      index.upsertDocument({
        base,
        source,
        name: f.name,
        file,
        path: f.name,
        sizeBytes: st.size,
        mtimeMs: st.mtimeMs,
        state: 'queued',
        pinned: false,
        tokens: 0,
      });
    }
    index.setEmbedder(EMBEDDER);
    // Read in this thread, as before the extraction worker: the figure is retrieval's recall, not extraction's.
    const indexer = new Indexer({ index, embed, log, read: (file) => readDocument(file) });
    const t = performance.now();
    indexer.kick(base);
    await indexer.idle();
    const err = indexer.state(base).error;
    if (err) throw err;
    const counts = index.countChunks([base], embedderKey(EMBEDDER));
    if (counts.embedded !== counts.total)
      throw new Error(`documents-recall: ${counts.embedded}/${counts.total} embedded`);
    ctx.log(
      `${corpus.files.length} documents → ${counts.total} chunks indexed in ${(performance.now() - t).toFixed(0)} ms`,
    );

    const vectors = await embed(
      EMBEDDER,
      corpus.questions.map((q) => q.question),
    );
    const key = embedderKey(EMBEDDER);
    const found = (q: PlantedQuestion, hits: SearchHit[]) => hits.slice(0, K).some((h) => h.text.includes(q.fact));
    const modes = {
      hybrid: (q: PlantedQuestion, v: number[]) => index.search([base], q.question, v, key, K),
      bm25: (q: PlantedQuestion) => index.search([base], q.question, undefined, undefined, K),
      vectors: (_q: PlantedQuestion, v: number[]) => index.search([base], '', v, key, K),
    };
    const recall = Object.fromEntries(
      Object.entries(modes).map(([mode, search]) => {
        const hits = corpus.questions.map((q, i) => found(q, search(q, vectors[i])));
        const share = (keep: boolean) => {
          const sel = corpus.questions.filter((q) => q.keepsDetail === keep);
          return sel.filter((q) => hits[corpus.questions.indexOf(q)]).length / sel.length;
        };
        ctx.log(
          `${mode}: recall@${K} ${pct(hits.filter(Boolean).length / hits.length)} (questions naming the detail ${pct(share(true))}, the place only ${pct(share(false))})`,
        );
        return [mode, (100 * hits.filter(Boolean).length) / hits.length];
      }),
    ) as Record<keyof typeof modes, number>;
    const n = corpus.questions.length;
    return [
      figure(`documents: recall@${K}, hybrid (${n} reworded questions)`, '%', [recall.hybrid], {
        target: `≥ BM25 alone (${recall.bm25.toFixed(1)} %) and ≥ vectors alone (${recall.vectors.toFixed(1)} %)`,
      }),
      figure(`documents: recall@${K}, BM25 alone`, '%', [recall.bm25], { note: 'the same search, no query vector' }),
      figure(`documents: recall@${K}, vectors alone`, '%', [recall.vectors], {
        note: 'the same search, no query text',
      }),
    ];
  } finally {
    chat.close();
    await fixture.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
