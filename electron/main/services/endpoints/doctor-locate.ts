import { AppError } from '@shared/errors';
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

/** A body as JSON when it is (whole: OpenRouter's model list is over a megabyte), and the start of its text. */
export async function readBody(res: Response): Promise<{ json?: unknown; text: string }> {
  const whole = await res.text();
  const text = whole.slice(0, 4096);
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
  const { json, text } = await readBody(res);
  if (res.status === 404 || res.status === 405) return { kind: 'missing', base };
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
