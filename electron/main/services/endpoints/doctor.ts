import type { DoctorReport, EndpointModel, EndpointPreset } from '@shared/contract/endpoints';
import { AppError } from '@shared/errors';
import { parseEndpoint } from '../net/endpoints';
import { describeModels, modelEntries } from './models';
import { networkProblem, quotable, statusProblem, type Deadline } from './problems';
import { plural } from '@shared/plural';

type Check = DoctorReport['checks'][number];

export interface DoctorInput {
  /** The address as typed (or stored): `/v1` may be there or not. */
  baseUrl: string;
  preset: EndpointPreset;
  /** The endpoint's key-bound fetch. */
  fetch: typeof fetch;
  hasKey: boolean;
  deadlineMs?: number;
}

/** Where the OpenAI API may be for an address as typed: with `/v1` first (the usual place), then without. */
export function baseCandidates(typed: string): string[] {
  const { href } = parseEndpoint(typed, 'Endpoint address');
  // A pasted full URL (…/v1/models, …/v1/chat/completions) stands for its base.
  const base = href.replace(/\/(chat\/completions|models)$/i, '');
  return /\/v1$/i.test(base) ? [base, base.slice(0, -3)] : [`${base}/v1`, base];
}

type Listing =
  | { kind: 'ok'; base: string; entries: Record<string, unknown>[] }
  | { kind: 'status'; base: string; status: number; body: unknown }
  | { kind: 'missing'; base: string }
  | { kind: 'not-openai'; base: string; what: string };

/** A body as JSON when it is (whole: OpenRouter's model list is over a megabyte), and the start of its text. */
async function readBody(res: Response): Promise<{ json?: unknown; text: string }> {
  const whole = await res.text();
  const text = whole.slice(0, 4096);
  try {
    return { json: JSON.parse(whole), text };
  } catch {
    return { text };
  }
}

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

interface ChatProbe {
  streamed: boolean;
  frames: number;
  reasoning: boolean;
  usage: boolean;
  toolsAccepted: boolean;
  toolsRefusal?: string;
}

const TOOL = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'The current time.',
    parameters: { type: 'object', properties: {} },
  },
};

/** Reads an SSE reply (or a whole JSON one) for what it shows of the server. */
async function readReply(res: Response, base: string, probe: ChatProbe): Promise<AppError | undefined> {
  if (!/event-stream/i.test(res.headers.get('content-type') ?? '')) {
    // Answered whole (the stream was not honoured): still an OpenAI reply if it has `choices`.
    const { json, text } = await readBody(res);
    const reply = json as { choices?: unknown; usage?: unknown } | undefined;
    if (!Array.isArray(reply?.choices)) {
      const what = /^\s*</.test(text) ? 'an HTML page' : json !== undefined ? 'JSON without "choices"' : 'plain text';
      return new AppError(
        'upstream',
        `${new URL(base).host} answered the chat with ${what}, not an OpenAI reply — check the address points at the model server's API.`,
      );
    }
    probe.usage = !!reply?.usage;
    return undefined;
  }
  probe.streamed = true;
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return undefined;
    buffer += value;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        await reader.cancel();
        return undefined;
      }
      let chunk: Record<string, unknown>;
      try {
        chunk = JSON.parse(data) as Record<string, unknown>;
      } catch {
        continue;
      }
      probe.frames++;
      const said = quotable(chunk);
      if (chunk.error && said) {
        await reader.cancel();
        return new AppError('upstream', `The server failed while answering: "${said}"`);
      }
      const delta = ((chunk.choices as Record<string, unknown>[] | undefined)?.[0]?.delta ?? {}) as Record<
        string,
        unknown
      >;
      if (delta.reasoning_content || delta.reasoning) probe.reasoning = true;
      if (chunk.usage || chunk.timings) probe.usage = true;
    }
  }
}

/** A one-token streamed chat with a tool offered; when that is refused, once more without it. */
async function oneToken(
  base: string,
  model: string,
  input: DoctorInput,
  deadline: Deadline,
): Promise<{ probe: ChatProbe; problem?: AppError }> {
  const probe: ChatProbe = { streamed: false, frames: 0, reasoning: false, usage: false, toolsAccepted: true };
  for (const withTools of [true, false]) {
    const body = {
      model,
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 1,
      stream: true,
      stream_options: { include_usage: true },
      ...(withTools ? { tools: [TOOL] } : {}),
    };
    const res = await input.fetch(`${base}/chat/completions`, {
      method: 'POST',
      signal: deadline.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
    });
    if (res.ok) return { probe, problem: await readReply(res, base, probe) };
    const { json, text } = await readBody(res);
    // Any refusal but the key's may be the tools' (llama.cpp without --jinja answers 500): asked again without them.
    if (withTools && res.status !== 401 && res.status !== 403) {
      probe.toolsAccepted = false;
      probe.toolsRefusal = quotable(json);
      continue;
    }
    return { probe, problem: statusProblem(res.status, `${base}/chat/completions`, json ?? text, input.hasKey) };
  }
  return { probe };
}

/** The model the one-token chat asks: a chat model, loaded ones first (LM Studio lists embeddings beside them). */
function pickModel(models: EndpointModel[]): EndpointModel | undefined {
  const chat = models.filter((m) => m.type !== 'embeddings' && !/embed/i.test(m.id));
  return chat.find((m) => m.loaded !== false) ?? chat[0];
}

/**
 * The endpoint doctor: `GET /models` where the address points, with and without `/v1`, then a one-token streamed
 * chat with the first model, all within one hard deadline. It says what is wrong in words a person can act on, and
 * what works: streaming, tool calls, reasoning, usage figures, context length.
 */
export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const started = Date.now();
  const ms = input.deadlineMs ?? 3000;
  const deadline: Deadline = { signal: AbortSignal.timeout(ms), ms };
  const typed = parseEndpoint(input.baseUrl, 'Endpoint address').href;
  const checks: Check[] = [];
  const done = (problem: AppError | undefined, baseUrl: string, models?: number): DoctorReport => ({
    ok: !problem,
    baseUrl,
    ...(problem ? { problem: problem.toJSON() } : {}),
    checks,
    ...(models !== undefined ? { models } : {}),
    elapsedMs: Date.now() - started,
  });
  const fail = (name: Check['name'], problem: AppError, baseUrl = typed, models?: number) => {
    checks.push({ name, ok: false, detail: problem.message });
    return done(problem, baseUrl, models);
  };

  let current = typed;
  try {
    const found = await locate(baseCandidates(input.baseUrl), input.fetch, deadline.signal, input.hasKey);
    const { host } = new URL(typed);
    checks.push({ name: 'reach', ok: true, detail: `${host} answers.` });
    if ('problem' in found) return fail('models', found.problem);
    const base = found.base;
    const models = await describeModels(found.entries, { baseUrl: base, fetch: input.fetch }, deadline.signal);
    const model = pickModel(models);
    if (!model)
      return fail(
        'models',
        new AppError(
          'not_found',
          `${host} serves no chat model — load one (llama-server -m, lms load, vllm serve <model>) and test again.`,
        ),
        base,
        models.length,
      );
    checks.push({
      name: 'models',
      ok: true,
      detail: `${plural(models.length, 'model')} at ${base}/models.`,
    });
    current = base;
    const { probe, problem } = await oneToken(base, model.id, input, deadline);
    if (problem) return fail('chat', problem, base, models.length);
    checks.push({ name: 'chat', ok: true, detail: `${model.id} answered a one-token chat.` });
    checks.push({
      name: 'streaming',
      ok: probe.streamed && probe.frames > 0,
      detail: probe.streamed ? `Streams replies (${probe.frames} frames).` : 'Answered whole, not as a stream.',
    });
    checks.push({
      name: 'tools',
      ok: probe.toolsAccepted,
      detail: probe.toolsAccepted
        ? 'Accepts tool definitions.'
        : `Refused a request offering tools — keep tools off in its chats.${probe.toolsRefusal ? ` The server said: ${probe.toolsRefusal}` : ''}`,
    });
    checks.push({
      name: 'reasoning',
      ok: probe.reasoning,
      ...(probe.reasoning ? {} : { unseen: true }),
      detail: probe.reasoning
        ? 'Sends reasoning apart from the reply.'
        : 'Not seen in a one-token reply: a reasoning model may still show it on longer answers.',
    });
    checks.push({
      name: 'usage',
      ok: probe.usage,
      detail: probe.usage ? 'Reports token counts or timings.' : 'No usage figures: speed is measured in HubDesk.',
    });
    const ctx = model.contextLength;
    checks.push({
      name: 'context',
      ok: !!ctx,
      detail: ctx
        ? `${model.id}: ${ctx.toLocaleString('en-US')} tokens of context${model.trainedContext && model.trainedContext !== ctx ? ` (trained with ${model.trainedContext.toLocaleString('en-US')})` : ''}.`
        : `The server does not say the context length it runs ${model.id} with: the chat asks for it once and keeps it.`,
    });
    return done(undefined, base, models.length);
  } catch (e) {
    if (e instanceof AppError) return fail(checks.length ? 'chat' : 'reach', e, current);
    const problem = networkProblem(e, current, input.preset, deadline);
    // A failure after the server answered (a cut stream, the deadline mid-chat) is the chat's.
    return fail(checks.length ? 'chat' : 'reach', problem, checks.length ? current : typed);
  }
}
