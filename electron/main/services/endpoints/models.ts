import type { EndpointModel } from '@shared/contract/endpoints';
import { hubRepoOf } from '@shared/hub-repo-name';

const MAX_MODELS = 1000;

type Json = Record<string, unknown>;

/** A positive integer the server gave, or undefined. */
function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/** The base URL without a trailing `/v1`: where llama.cpp's /props and LM Studio's /api/v0 live. */
function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/v1$/i, '');
}

/** Whether a `/models` answer is OpenAI-shaped: a JSON object with a `data` array. */
export function modelEntries(body: unknown): Json[] | undefined {
  const data = (body as Json | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.filter((m): m is Json => typeof m === 'object' && m !== null && typeof (m as Json).id === 'string');
}

/** What `/v1/models` says of each model: vLLM `max_model_len`, llama.cpp `meta`, OpenRouter `context_length` and its
 * `hugging_face_id` (authoritative when present, empty for a model with no Hub repo). */
function fromListing(m: Json): EndpointModel {
  const id = String(m.id);
  const meta = (m.meta ?? {}) as Json;
  const contextLength = count(m.max_model_len) ?? count(meta.n_ctx) ?? count(m.context_length);
  const trainedContext = count(meta.n_ctx_train);
  const hub =
    typeof m.hugging_face_id === 'string'
      ? hubRepoOf(m.hugging_face_id)
      : 'hugging_face_id' in m
        ? undefined
        : hubRepoOf(id);
  return {
    id,
    ...(contextLength ? { contextLength, contextSource: 'server' as const } : {}),
    ...(trainedContext ? { trainedContext } : {}),
    ...(hub ? { hubRepo: hub } : {}),
  };
}

async function getJson(fetchFn: typeof fetch, url: string, signal: AbortSignal): Promise<Json | undefined> {
  try {
    const res = await fetchFn(url, { signal, headers: { accept: 'application/json' } });
    if (!res.ok) {
      await res.body?.cancel();
      return undefined;
    }
    const body = (await res.json()) as unknown;
    return typeof body === 'object' && body !== null ? (body as Json) : undefined;
  } catch {
    // Extra detail only: the model list stands without it.
    return undefined;
  }
}

/**
 * The models of a `/v1/models` answer, with what each server reports beside it: llama.cpp's `/props`
 * (`default_generation_settings.n_ctx`, for builds whose listing has no `meta.n_ctx`, and `modalities.vision` when
 * it runs with a projector) and LM Studio's `/api/v0/models` (`max_context_length`, `type` — `vlm` takes images —,
 * `state`).
 */
export async function describeModels(
  entries: Json[],
  conn: { baseUrl: string; fetch: typeof fetch },
  signal: AbortSignal,
): Promise<EndpointModel[]> {
  const models = entries
    .filter((m) => String(m.id).length <= 512)
    .slice(0, MAX_MODELS)
    .map(fromListing);
  const root = serverRoot(conn.baseUrl);
  const llama = entries.some((m) => m.owned_by === 'llamacpp' || 'meta' in m);
  const lmstudio = entries.some((m) => m.owned_by === 'organization_owner');
  if (llama && models.length === 1) {
    const props = await getJson(conn.fetch, `${root}/props`, signal);
    const nCtx = count((props?.default_generation_settings as Json | undefined)?.n_ctx);
    if (nCtx && !models[0].contextLength) Object.assign(models[0], { contextLength: nCtx, contextSource: 'server' });
    if ((props?.modalities as Json | undefined)?.vision === true) models[0].vision = true;
  }
  if (lmstudio) {
    const v0 = modelEntries(await getJson(conn.fetch, `${root}/api/v0/models`, signal)) ?? [];
    for (const m of models) {
      const info = v0.find((x) => x.id === m.id);
      if (!info) continue;
      const ctx = count(info.max_context_length);
      if (ctx) Object.assign(m, { contextLength: ctx, contextSource: 'server' });
      if (typeof info.type === 'string') m.type = info.type.slice(0, 32);
      if (info.type === 'vlm') m.vision = true;
      if (typeof info.state === 'string') m.loaded = info.state === 'loaded';
    }
  }
  return models;
}
