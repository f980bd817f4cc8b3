import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { LocalModel } from '@shared/contract/local-models';
import { HttpError, modelNotFound } from './http';
import type { RequestRecord } from './request-log';
import { parseBody } from './wire';

// POST /v1/rerank as llama-server and vLLM answer it, so Jina's and Cohere's clients work: a query and documents in,
// each document's index and relevance score out, most relevant first. Documents may be strings or `{text}` objects.

/** The most characters a query or a document may have (far past any reranker's context; the tokens decide). */
const MAX_TEXT = 200_000;

const documentSchema = z.union([z.string().max(MAX_TEXT), z.object({ text: z.string().max(MAX_TEXT) }).passthrough()]);

const rerankRequestSchema = z
  .object({
    model: z.string().min(1).max(1024),
    query: z.string().max(MAX_TEXT),
    documents: z.array(documentSchema).min(1).max(1000),
    /** Only the best n (llama-server cuts the sorted list; Cohere and Jina the same). */
    top_n: z.number().int().min(1).nullish(),
    /** Each result with its document's text (Cohere's and Jina's field; off by default, as in Cohere's v2 API). */
    return_documents: z.boolean().nullish(),
  })
  .passthrough();
type RerankRequest = z.infer<typeof rerankRequestSchema>;

export interface RerankDeps {
  models: () => Promise<LocalModel[]>;
  rank: (model: LocalModel, query: string, documents: string[]) => Promise<{ scores: number[]; tokens: number }>;
  record: RequestRecord;
}

/** The request's model, when it is a reranker; else a 404 (unknown) or a 400 naming the models that can rerank. */
function reranker(models: LocalModel[], id: string): LocalModel {
  const m = models.find((x) => x.id === id);
  if (!m) throw modelNotFound(id);
  if (m.reranker) return m;
  const can = models.filter((x) => x.reranker).map((x) => `"${x.id}"`);
  throw new HttpError(
    400,
    `"${id}" is not a reranker: ${can.length ? `the models that can rerank are ${can.join(', ')}` : 'no local model can rerank; add a reranker GGUF (bge-reranker, jina-reranker, Qwen3-Reranker) to the library'}.`,
    'invalid_request_error',
    'model_not_supported',
  );
}

/** The answer: llama-server's members (`model`, `object`, `usage`, `results`), and `id` as Cohere's and vLLM's have. */
export async function rerank(deps: RerankDeps, raw: unknown) {
  const body: RerankRequest = parseBody(rerankRequestSchema, raw);
  deps.record.model = body.model;
  const m = reranker(await deps.models(), body.model);
  const texts = body.documents.map((d) => (typeof d === 'string' ? d : d.text));
  const { scores, tokens } = await deps.rank(m, body.query, texts);
  deps.record.measured({ prompt_tokens: tokens, completion_tokens: 0 });
  const results = scores
    .map((relevance_score, index) => ({
      index,
      relevance_score,
      ...(body.return_documents ? { document: { text: texts[index] } } : {}),
    }))
    // Stable: equal scores keep the documents' order.
    .sort((a, b) => b.relevance_score - a.relevance_score)
    .slice(0, body.top_n ?? undefined);
  return {
    id: `rerank-${randomBytes(16).toString('hex')}`,
    model: m.id,
    object: 'list',
    results,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
