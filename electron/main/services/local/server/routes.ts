import type { IncomingMessage, ServerResponse } from 'node:http';
import { anthropicRoute, isAnthropicPath } from './anthropic/route';
import { chatCompletion, chatModelError } from './completions';
import { completionRequestSchema, completionUnsupported, textCompletion } from './text-completions';
import {
  authorized,
  HttpError,
  modelNotFound,
  readJson,
  sendError,
  sendJson,
  sendUnauthorized,
  toHttpError,
} from './http';
import { contextOf, tooLongForContext } from './prompt-size';
import { rerank } from './rerank';
import type { RouteDeps } from './route-deps';
import { chatRequestSchema, embeddingRequestSchema, parseBody, unsupported } from './wire';

/**
 * One request: the Host, the Origin (`gate`) and the key first, then the OpenAI routes (`/v1/models`, chat and text
 * completions, embeddings, rerank); Anthropic's `/v1/messages` after the gate (anthropic/route.ts checks the key itself).
 */
export async function route(deps: RouteDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Aborted when the client goes away before the answer is complete: the generation stops with it.
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  try {
    if (deps.gate(req, res)) return;
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.replace(/\/+$/, '');
    const at = `${req.method} ${path}`;
    // llama-server's health check, without the key: a tool can see the server is up before it has one. Nothing else.
    if (at === 'GET /health') return sendJson(res, 200, { status: 'ok' });
    // Anthropic's Messages API checks the key itself, so a wrong one is answered in Anthropic's shape too.
    if (isAnthropicPath(path)) return await anthropicRoute(deps, req, res, at, abort.signal);
    if (!authorized(req, deps.key)) return sendUnauthorized(res);
    if (at === 'GET /v1/models') return sendJson(res, 200, await modelList(deps));
    if (at === 'POST /v1/chat/completions') {
      const body = parseBody(chatRequestSchema, await readJson(req));
      deps.record.model = body.model;
      const offered = unsupported(body);
      if (offered) throw offered;
      const m = (await deps.models()).find((x) => x.id === body.model);
      const refused =
        chatModelError(m, body.model) ??
        tooLongForContext([body.messages, body.tools], contextOf(m!, deps.loaded()), body.model);
      if (refused) throw refused;
      return await chatCompletion(deps.engine, body, res, abort.signal, deps.record);
    }
    if (at === 'POST /v1/completions') {
      const body = parseBody(completionRequestSchema, await readJson(req));
      deps.record.model = body.model;
      const offered = completionUnsupported(body);
      if (offered) throw offered;
      const m = (await deps.models()).find((x) => x.id === body.model);
      const refused =
        chatModelError(m, body.model) ?? tooLongForContext(body.prompt, contextOf(m!, deps.loaded()), body.model);
      if (refused) throw refused;
      return await textCompletion(deps.engine, body, res, abort.signal, deps.record);
    }
    if (at === 'POST /v1/embeddings') return sendJson(res, 200, await embeddings(deps, await readJson(req)));
    // llama-server takes both paths (Jina's clients post to /v1/rerank, some others to /rerank).
    if (at === 'POST /v1/rerank' || at === 'POST /rerank')
      return sendJson(res, 200, await rerank(deps, await readJson(req)));
    throw new HttpError(
      404,
      `No route ${at}: this server answers /v1/models, /v1/chat/completions, /v1/completions, /v1/embeddings, /v1/rerank and /v1/messages.`,
      'not_found_error',
    );
  } catch (e) {
    const err = toHttpError(e);
    deps.record.error = err.message;
    if (err.status >= 500) deps.log.warn('local server request failed', { reason: err.message });
    if (res.headersSent) return void res.destroy();
    sendError(res, err);
  }
}

/**
 * OpenAI's model list, with what a client needs to pick and size a model (as LM Studio's and llama-server's lists
 * add): chat, embeddings or rerank, loaded or not, the context it has (or will be loaded with) and the trained maximum.
 */
async function modelList(deps: RouteDeps) {
  const created = Math.floor(Date.now() / 1000);
  const models = await deps.models();
  const loaded = new Map(deps.loaded().map((l) => [l.id, l]));
  return {
    object: 'list',
    data: models.map((m) => {
      const l = loaded.get(m.id);
      const context = l?.contextSize ?? m.plan?.contextSize;
      return {
        id: m.id,
        object: 'model',
        created,
        owned_by: 'hubdesk',
        type: m.reranker ? 'rerank' : m.embedding ? 'embeddings' : 'llm',
        capabilities: m.reranker ? ['rerank'] : m.embedding ? ['embedding'] : ['completion', 'tools', 'json_schema'],
        loaded: !!l,
        ...(context !== undefined ? { context_length: context } : {}),
        ...(m.plan?.maxContext !== undefined ? { max_context_length: m.plan.maxContext } : {}),
        ...(m.architecture ? { arch: m.architecture } : {}),
        ...(m.quant ? { quantization: m.quant } : {}),
      };
    }),
  };
}

/** Float32 little-endian bytes in base64: what the OpenAI clients ask for by default, and decode. */
function base64Floats(v: number[]): string {
  const f = Float32Array.from(v);
  return Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString('base64');
}

async function embeddings(deps: RouteDeps, raw: unknown) {
  const body = parseBody(embeddingRequestSchema, raw);
  deps.record.model = body.model;
  const m = (await deps.models()).find((x) => x.id === body.model);
  if (!m) throw modelNotFound(body.model);
  const texts = typeof body.input === 'string' ? [body.input] : body.input;
  const vectors = await deps.embed(m, texts);
  const base64 = body.encoding_format === 'base64';
  return {
    object: 'list',
    data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: base64 ? base64Floats(v) : v })),
    model: m.id,
    // The runtime does not report token counts for embeddings; zero rather than a guess.
    usage: { prompt_tokens: 0, total_tokens: 0 },
  };
}
