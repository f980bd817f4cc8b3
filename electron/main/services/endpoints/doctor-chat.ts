import type { EndpointModel } from '@shared/contract/endpoints';
import { AppError } from '@shared/errors';
import { capWords } from '../http/read-json-capped';
import { readBody, TOO_LARGE } from './doctor-locate';
import { quotable, statusProblem, type Deadline } from './problems';

/** What a one-token chat showed of the server. */
export interface ChatProbe {
  streamed: boolean;
  frames: number;
  reasoning: boolean;
  usage: boolean;
  toolsAccepted: boolean;
  toolsRefusal?: string;
}

/** The longest event line a one-token reply is read for (characters). */
const SSE_LINE_MAX = 1024 * 1024;

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
    const { json, text, tooLarge } = await readBody(res);
    const reply = json as { choices?: unknown; usage?: unknown } | undefined;
    if (!Array.isArray(reply?.choices)) {
      const what = tooLarge
        ? TOO_LARGE
        : /^\s*</.test(text)
          ? 'an HTML page'
          : json !== undefined
            ? 'JSON without "choices"'
            : 'plain text';
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
    // A one-token reply's events are small: a line that does not end is a server streaming something else.
    if (buffer.length > SSE_LINE_MAX) {
      await reader.cancel();
      return new AppError(
        'upstream',
        `${new URL(base).host} streamed a line longer than ${capWords(SSE_LINE_MAX)} in its chat reply, not OpenAI's events — check the address points at the model server's API.`,
      );
    }
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
export async function oneToken(
  base: string,
  model: string,
  input: { fetch: typeof fetch; hasKey: boolean },
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
export function pickModel(models: EndpointModel[]): EndpointModel | undefined {
  const chat = models.filter((m) => m.type !== 'embeddings' && !/embed/i.test(m.id));
  return chat.find((m) => m.loaded !== false) ?? chat[0];
}
