import { AppError } from '@shared/errors';
import { capWords } from '../http/read-json-capped';
import { readCappedText } from '../http/read-text-capped';
import { parseEndpoint } from '../net/endpoints';
import { modelEntries } from './models';
import { quotable, statusProblem } from './problems';

/** Where the OpenAI API may be for an address as typed: with `/v1` first (the usual place), then without. */
export function baseCandidates(typed: string): string[] {
  const { href } = parseEndpoint(typed, 'Endpoint address');
  // A pasted full URL (…/v1/models, …/v1/chat/completions) stands for its base.
  const base = href.replace(/\/(chat\/completions|models)$/i, '');
  return /\/v1$/i.test(base) ? [base, base.slice(0, -3)] : [`${base}/v1`, base];
}

/** The most of one answer the doctor reads: OpenRouter's model list is over a megabyte; a server may never stop. */
const BODY_MAX_BYTES = 16 * 1024 * 1024;
/** A backstop only: the doctor's deadline (its fetch signal) ends a read long before. */
const BODY_TIMEOUT_MS = 30_000;

/** What a body larger than the doctor reads is called in its words. */
export const TOO_LARGE = `more than ${capWords(BODY_MAX_BYTES)}`;

/**
 * A body as JSON when it is (whole, up to BODY_MAX_BYTES), and the start of its text; `tooLarge` when it went past
 * that (then not parsed).
 */
export async function readBody(res: Response): Promise<{ json?: unknown; text: string; tooLarge?: boolean }> {
  const { text: whole, truncated } = await readCappedText(res, BODY_MAX_BYTES, BODY_TIMEOUT_MS);
  const text = whole.slice(0, 4096);
  if (truncated) return { text, tooLarge: true };
  try {
    return { json: JSON.parse(whole), text };
  } catch {
    return { text };
  }
}

type Listing =
  | { kind: 'ok'; base: string; entries: Record<string, unknown>[] }
  | { kind: 'status'; base: string; status: number; body: unknown }
  | { kind: 'missing'; base: string }
  | { kind: 'not-openai'; base: string; what: string };

/** `GET <base>/models`, read as what it tells about the address. Network failures throw. */
async function listing(base: string, fetchFn: typeof fetch, signal: AbortSignal): Promise<Listing> {
  const res = await fetchFn(`${base}/models`, { signal, headers: { accept: 'application/json' } });
  const { json, text, tooLarge } = await readBody(res);
  if (res.status === 404 || res.status === 405) return { kind: 'missing', base };
  if (tooLarge) return { kind: 'not-openai', base, what: TOO_LARGE };
  if (!res.ok) return { kind: 'status', base, status: res.status, body: json ?? text };
  const entries = modelEntries(json);
  if (entries) return { kind: 'ok', base, entries };
  // LM Studio answers a path it does not serve with 200 and an error body.
  const said = quotable(json);
  if (said && /unexpected endpoint|not found/i.test(said)) return { kind: 'missing', base };
  const what = /^\s*</.test(text)
    ? 'an HTML page'
    : json !== undefined
      ? 'JSON without a "data" model list'
      : 'text that is not JSON';
  return { kind: 'not-openai', base, what };
}

/** Of several failed listings, the one that says most about what is wrong. */
function worst(found: Listing[], hasKey: boolean, typed: string): AppError {
  const status = found.find((l) => l.kind === 'status' && (l.status === 401 || l.status === 403));
  const other = status ?? found.find((l) => l.kind === 'status');
  if (other?.kind === 'status') return statusProblem(other.status, `${other.base}/models`, other.body, hasKey);
  const odd = found.find((l) => l.kind === 'not-openai');
  const { host, origin } = new URL(typed);
  if (odd?.kind === 'not-openai')
    return new AppError(
      'upstream',
      `${host} answers, but not as an OpenAI-compatible server (it sent ${odd.what} for ${odd.base}/models) — check the port: is this the model server?`,
    );
  const tried = found.map((l) => `${l.base}/models`).join(' nor ');
  return new AppError(
    'not_found',
    `Neither ${tried} exists (404) — the OpenAI API is usually under /v1 (e.g. ${origin}/v1); check the path in the address.`,
    { status: 404 },
  );
}

/**
 * `GET <base>/models` at each candidate base in turn: the first OpenAI-shaped answer, or what is wrong with them all.
 * Network failures throw (every candidate is on the same origin).
 */
export async function locate(
  candidates: string[],
  fetchFn: typeof fetch,
  signal: AbortSignal,
  hasKey: boolean,
): Promise<{ base: string; entries: Record<string, unknown>[] } | { problem: AppError }> {
  const found: Listing[] = [];
  for (const base of candidates) {
    const l = await listing(base, fetchFn, signal);
    if (l.kind === 'ok') return l;
    found.push(l);
  }
  return { problem: worst(found, hasKey, candidates[0]) };
}
