import { chunk } from '../../electron/main/services/documents/chunk';
import { ollamaEngines } from '../../tests/helpers/engines';
import { createEmbedder } from '../../electron/main/services/documents/embedder';
import { extract } from '../../electron/main/services/documents/extract/extract';
import { createLogger } from '../../electron/main/services/log';
import { OllamaService } from '../../electron/main/services/ollama/service';
import { plantedCorpus } from '../../tests/fixtures/documents/corpus';
import { startOllamaFixture } from '../../tests/fixtures/ollama';
import { figure, timeRuns, type BenchContext, type Figure } from '../lib/measure';

const MODEL = 'nomic-embed-text';
const BATCH = 32;

/** The planted-facts corpus as the indexer sends it: extracted, chunked (300 tokens, 40 overlap), in batches of 32. */
async function corpusBatches(documents: number): Promise<string[][]> {
  const { files } = plantedCorpus({ documents, factsPerDocument: 5, seed: 31 });
  const texts: string[] = [];
  for (const f of files) {
    const doc = await extract({ name: f.name, bytes: new TextEncoder().encode(f.text) });
    texts.push(...chunk(doc, { targetTokens: 300, overlapTokens: 40 }).map((c) => c.text));
  }
  const batches: string[][] = [];
  for (let i = 0; i < texts.length; i += BATCH) batches.push(texts.slice(i, i + BATCH));
  return batches;
}

/**
 * Documents (#31): embedding throughput (chunks/s) through HubDesk's embedder (the docs indexer's, on Ollama)
 * against Ollama's `/api/embed` called directly (plain fetch) with the same batches, against the Ollama fixture,
 * interleaved run by run. The fixture's vectors are computed in this process for both sides alike, so the ratio is what HubDesk's
 * layers (ollama-js, parsing, checks) cost over a bare client.
 */
export async function documentsEmbed(ctx: BenchContext): Promise<Figure[]> {
  const batches = await corpusBatches(48);
  const chunks = batches.reduce((a, b) => a + b.length, 0);
  const fixture = await startOllamaFixture();
  fixture.addEmbeddingModel(MODEL);
  try {
    const ollama = new OllamaService({ host: () => fixture.url, keyedFetch: fetch, log: createLogger() });
    // HubDesk's path: the docs indexer's embedder, on OllamaService (ollama-js) for the Ollama backend.
    const embed = createEmbedder(ollamaEngines(ollama, createLogger()));
    const hubRun = async () => {
      for (const input of batches) {
        const vectors = await embed({ backend: 'ollama', model: MODEL }, input);
        if (vectors.length !== input.length) throw new Error('documents-embed: a batch came back short');
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
    // Interleaved, each side first every other run, so both see the same machine.
    for (let i = 0; i < ctx.runs(9, 5); i++) {
      const pair = [
        async () => hub.push(...(await timeRuns(1, hubRun, 0))),
        async () => direct.push(...(await timeRuns(1, directRun, 0))),
      ];
      for (const run of i % 2 ? pair.reverse() : pair) await run();
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
