import type { GgufHeader } from '@shared/contract/hardware';
import { AppError } from '@shared/errors';
import { hubOffError } from '@shared/hub-off';
import type { Logger } from '../log';

interface GgufHeaderOptions {
  endpoint: () => string;
  /** The key-bound fetch: it alone puts the token on requests (net/bound-fetch.ts). */
  fetch: typeof fetch;
  /** Hub access on: nothing is sent otherwise. */
  enabled: () => boolean;
  log: Logger;
  timeoutMs?: number;
}

const OFF =
  'Live Hub access is off, so the GGUF header is not read: the fit uses the Hub details seen before (an estimate).';

function num(v: unknown): number | undefined {
  if (typeof v === 'bigint') return Number(v);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
function many(v: unknown): number | undefined {
  if (Array.isArray(v)) return Math.max(0, ...v.map((x) => num(x) ?? 0)) || undefined;
  return num(v);
}

/** The facts the KV-cache estimate needs, picked from a parsed header's metadata. */
export function headerFacts(meta: Record<string, unknown>, parameterCount?: number): GgufHeader {
  const arch = typeof meta['general.architecture'] === 'string' ? meta['general.architecture'] : undefined;
  const k = (name: string) => (arch ? meta[`${arch}.${name}`] : undefined);
  const out: GgufHeader = {
    architecture: arch,
    name: typeof meta['general.name'] === 'string' ? meta['general.name'] : undefined,
    blockCount: num(k('block_count')),
    contextLength: num(k('context_length')),
    embeddingLength: num(k('embedding_length')),
    headCount: many(k('attention.head_count')),
    headCountKv: many(k('attention.head_count_kv')),
    keyLength: num(k('attention.key_length')),
    valueLength: num(k('attention.value_length')),
    parameterCount: parameterCount && parameterCount > 0 ? parameterCount : undefined,
  };
  for (const key of Object.keys(out) as (keyof GgufHeader)[]) if (out[key] === undefined) delete out[key];
  return out;
}

/**
 * Reads the header of a GGUF file on the Hub with @huggingface/gguf (range requests on `/{id}/resolve/main/{file}`),
 * through the key-bound fetch (the token only where it is bound). Headers are kept in memory: a file at a revision never changes.
 */
export class GgufHeaderReader {
  private cache = new Map<string, GgufHeader>();

  constructor(private readonly opts: GgufHeaderOptions) {}

  async read(id: string, file: string): Promise<GgufHeader> {
    if (!this.opts.enabled()) throw hubOffError(OFF);
    const endpoint = this.opts.endpoint().replace(/\/+$/, '');
    const url = `${endpoint}/${id.split('/').map(encodeURIComponent).join('/')}/resolve/main/${file
      .split('/')
      .map(encodeURIComponent)
      .join('/')}`;
    const hit = this.cache.get(url);
    if (hit) return hit;
    const origin = new URL(endpoint).origin;
    const timeoutMs = this.opts.timeoutMs ?? 15_000;
    // A failing answer becomes an AppError here, so the library passes it through with the Hub's own reason.
    const hubFetch: typeof fetch = async (input, init) => {
      let res: Response;
      try {
        res = await this.opts.fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      } catch (e) {
        const timedOut = (e as Error).name === 'TimeoutError';
        throw new AppError(
          timedOut ? 'timeout' : 'unavailable',
          timedOut ? `The Hub did not answer within ${timeoutMs / 1000} s.` : `Could not reach ${origin}.`,
        );
      }
      if (res.ok) return res;
      const code = res.headers.get('x-error-code');
      if (res.status === 401 || res.status === 403)
        throw new AppError(
          'unauthorized',
          code === 'GatedRepo'
            ? `${id} is gated: accept its terms on the Hub and set your token in Settings to read its GGUF header.`
            : `The Hub refused to serve ${file} (${res.status}). A token may be needed.`,
          { status: res.status },
        );
      // Only files the repo lists are read: a 404 is a repo changed since its listing, or a mirror without the file.
      if (res.status === 404)
        throw new AppError(
          'not_found',
          code === 'RepoNotFound'
            ? `The Hub at ${origin} does not serve ${id} now: it may have been renamed or made private since it was listed.`
            : `The Hub at ${origin} did not serve ${file} (404) although the repo lists it: reload the page, as the repo may have changed.`,
          { status: 404, ...(code ? { details: { hubErrorCode: code } } : {}) },
        );
      if (res.status === 429) throw new AppError('rate_limited', 'The Hub is rate-limiting requests: try again soon.');
      throw new AppError('upstream', `The Hub answered ${res.status} for ${file}.`, { status: res.status });
    };
    try {
      // Loaded on first use: @huggingface/gguf is heavy and nothing at start-up needs it.
      const { gguf } = await import('@huggingface/gguf');
      const parsed = await gguf(url, { fetch: hubFetch, computeParametersCount: true });
      const facts = headerFacts(parsed.metadata as Record<string, unknown>, parsed.parameterCount);
      if (this.cache.size > 200) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(url, facts);
      return facts;
    } catch (e) {
      if (e instanceof AppError) throw e;
      this.opts.log.warn('gguf header unreadable', { id, file, message: (e as Error).message });
      throw new AppError('upstream', `${file} does not start with a readable GGUF header (${(e as Error).message}).`);
    }
  }
}
