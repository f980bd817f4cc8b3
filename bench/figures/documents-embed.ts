import { chunk } from '../../electron/main/services/documents/chunk';
import { extract } from '../../electron/main/services/documents/extract/extract';
import { createLogger } from '../../electron/main/services/log';
import { OllamaService } from '../../electron/main/services/ollama/service';
import { plantedCorpus } from '../../tests/fixtures/documents/corpus';
import { startOllamaFixture } from '../../tests/fixtures/ollama';
import { figure, timeRuns, type BenchContext, type Figure } from '../lib/measure';

const MODEL = 'nomic-embed-text';
const BATCH = 32;

/** The planted-facts corpus as the indexer sends it: extracted, chunked (512 tokens, 64 overlap), in batches. */
export async function corpusBatches(documents: number): Promise<string[][]> {
  const { files } = plantedCorpus({ documents, factsPerDocument: 5, seed: 31 });
  const texts: string[] = [];
  for (const f of files) {
    const doc = await extract({ name: f.name, bytes: new TextEncoder().encode(f.text) });
    texts.push(...chunk(doc, { targetTokens: 512, overlapTokens: 64 }).map((c) => c.text));
  }
  const batches: string[][] = [];
  for (let i = 0; i < texts.length; i += BATCH) batches.push(texts.slice(i, i + BATCH));
  return batches;
}

/**
 * Documents (#31): embedding throughput (chunks/s) through HubDesk's Ollama embedding path against Ollama's
 * `/api/embed` called directly (plain fetch) with the same batches, against the Ollama fixture, interleaved run
 * by run. The fixture's vectors are computed in this process for both sides alike, so the ratio is what HubDesk's
 * layers (ollama-js, parsing, checks) cost over a bare client.
 */
export async function documentsEmbed(ctx: BenchContext): Promise<Figure[]> {
  const batches = await corpusBatches(48);
  const chunks = batches.reduce((a, b) => a + b.length, 0);
  const fixture = await startOllamaFixture();
  fixture.addEmbeddingModel(MODEL);
  try {
    const ollama = new OllamaService({ host: () => fixture.url, keyedFetch: fetch, log: createLogger() });
    // HubDesk's path: the docs indexer's embedder goes through OllamaService.embed for the Ollama backend.
    const hubRun = async () => {
      for (const input of batches) {
        const r = await ollama.embed({ model: MODEL, input });
        if (r.embeddings.length !== input.length) throw new Error('documents-embed: a batch came back short');
      }
    };
    const directRun = async () => {
      for (const input of batches) {
        const res = await fetch(`${fixture.url}/api/embed`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, input }),
        });
        const r = (await res.json()) as { embeddings: number[][] };
        if (r.embeddings.length !== input.length) throw new Error('documents-embed: a batch came back short');
      }
    };
    await hubRun();
    await directRun();
    const hub: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < ctx.runs(7, 3); i++) {
      hub.push(...(await timeRuns(1, hubRun, 0)));
      direct.push(...(await timeRuns(1, directRun, 0)));
    }
    ctx.log(
      `hub ${hub.map((x) => x.toFixed(0)).join(', ')} ms; direct ${direct.map((x) => x.toFixed(0)).join(', ')} ms`,
    );
    ctx.log(`${chunks} chunks in ${batches.length} batches of ≤ ${BATCH}, 768 dimensions`);
    const rate = (ms: number[]) => ms.map((t) => chunks / (t / 1000));
    return [
      figure('documents: embedding throughput (vs /api/embed direct)', 'chunks/s', rate(hub), {
        baseline: rate(direct),
        target: '≥ 0.9× (baseline: the same batches by plain fetch)',
      }),
    ];
  } finally {
    await fixture.stop();
  }
}
