import type { ChatCompletionInput, ChatCompletionInputMessage } from '@huggingface/tasks';
import type { ToolCall } from '@shared/contract/chat';
import { AppError, type ErrorCode } from '@shared/errors';
import { TimeoutError, networkErrorCode, timeoutFetch } from '../http/timeout-fetch';

interface ProviderRequest {
  routerUrl: string;
  /** The token bound to the router, if any: only checked here; `fetch` sends it. */
  token: string | undefined;
  /** The key-bound fetch: it alone puts the token on requests (net/bound-fetch.ts). */
  fetch: typeof fetch;
  billTo: string;
  model: string;
  /** `auto` lets the router choose; otherwise `model:provider` pins one. */
  provider: string;
  /** OpenAI-style messages (tool calls with string arguments, tool results by call id). */
  messages: Record<string, unknown>[];
  /** OpenAI-style function tools; the reply may then carry `delta.tool_calls`. */
  tools?: { type: string; function: { name?: string; description?: string; parameters?: unknown } }[];
  params: { temperature?: number; top_p?: number; max_tokens?: number; seed?: number; stop?: string[] };
  signal: AbortSignal;
  timeoutMs?: number;
}

interface ProviderDelta {
  content?: string;
  thinking?: string;
  finishReason?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  /** Fragments of tool calls: the first of each index names it, the rest add pieces of its JSON arguments. */
  toolCalls?: ToolCallFragment[];
}

interface ToolCallFragment {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

/**
 * Puts streamed tool calls back together (OpenAI `delta.tool_calls`: an index per call, its id and name once,
 * its arguments as string pieces). Arguments that do not parse to an object are kept raw for the error.
 */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id?: string; name: string; args: string }>();

  add(fragments: ToolCallFragment[]): void {
    for (const f of fragments) {
      const c = this.calls.get(f.index) ?? { name: '', args: '' };
      if (f.id) c.id = f.id;
      if (f.name) c.name += f.name;
      if (f.arguments) c.args += f.arguments;
      this.calls.set(f.index, c);
    }
  }

  done(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => {
        const call: ToolCall = { id: c.id || `call_${index}`, name: c.name, arguments: {} };
        try {
          const parsed: unknown = c.args.trim() ? JSON.parse(c.args) : {};
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            call.arguments = parsed as Record<string, unknown>;
          else call.rawArguments = c.args;
        } catch {
          call.rawArguments = c.args;
        }
        return call;
      });
  }
}

interface HttpErrorLike {
  name?: string;
  message?: string;
  httpResponse?: { status?: number; body?: unknown };
}

function detailOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  const b = body as { error?: unknown; message?: unknown; detail?: unknown } | null;
  if (!b || typeof b !== 'object') return undefined;
  if (typeof b.error === 'string') return b.error;
  const inner = b.error as { message?: unknown } | undefined;
  if (inner && typeof inner.message === 'string') return inner.message;
  if (typeof b.message === 'string') return b.message;
  if (typeof b.detail === 'string') return b.detail;
  return undefined;
}

export function httpStatusOf(e: unknown): number | undefined {
  const s = (e as HttpErrorLike)?.httpResponse?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Turns what the inference client threw into a message a person can act on. */
export function providerError(
  e: unknown,
  req: Pick<ProviderRequest, 'routerUrl' | 'model' | 'provider' | 'tools'>,
): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof TimeoutError)
    return new AppError(
      'timeout',
      `The inference router at ${req.routerUrl} did not answer within ${Math.round(e.ms / 1000)} s. Try again, or check the router URL in Settings.`,
    );
  const err = e as HttpErrorLike;
  if (err?.name === 'AbortError') return new AppError('aborted', 'Stopped.');
  const status = httpStatusOf(e);
  if (status !== undefined) {
    const detail = detailOf(err.httpResponse?.body);
    const why = detail ? ` (${detail})` : '';
    const where = req.provider === 'auto' ? 'any provider' : `provider ${req.provider}`;
    const make = (code: ErrorCode, message: string) =>
      new AppError(code, message, { status, details: detail ? { detail } : undefined });
    // Tools are the usual reason a provider refuses an otherwise fine request: say so, with the way out.
    const tools = req.tools?.length
      ? " The model or provider may not support tool calling: turn this conversation's tools off, or choose another provider."
      : '';
    if (status === 400)
      return make(
        'invalid_input',
        `The request was refused as invalid${why}. Check the model id and the parameters.${tools}`,
      );
    if (status === 401) return make('unauthorized', 'The Hugging Face token was rejected — set it in Settings.');
    if (status === 403)
      return make(
        'forbidden',
        `The Hugging Face token may not use ${req.model} on ${where}${why}. Give the token the "Inference Providers" permission, or check the bill-to organisation in Settings.`,
      );
    if (status === 404)
      return make(
        'not_found',
        `${req.model} is not available on ${where}${why}. Check the model id, or choose another provider.`,
      );
    if (status >= 200 && status < 300)
      // An error event inside a stream that had begun (HTTP 200): the provider's own words are the message.
      return make('upstream', `The provider stopped with an error: ${detail || 'no reason given'}.`);
    if (status === 402) return make('forbidden', `Your Hugging Face credits are used up${why}.`);
    if (status === 409) return make('conflict', `The provider reported a conflict${why}. Try again in a moment.`);
    if (status === 422)
      return make(
        'invalid_input',
        `The provider could not use these settings${why}. Change the parameters (e.g. max tokens) and try again.${tools}`,
      );
    if (status === 429)
      return make(
        'rate_limited',
        `Too many requests, or your Inference Providers credits are used up${why}. Wait a moment, or choose another provider.`,
      );
    if (status === 503)
      return make(
        'unavailable',
        `The provider is unavailable right now${why}. Try again later, or choose another provider.`,
      );
    if (status === 504) return make('timeout', `The provider timed out${why}. Try again, or choose another provider.`);
    if (status >= 500)
      return make('upstream', `The provider failed (HTTP ${status})${why}. Try again, or choose another provider.`);
    return make('upstream', `The router answered HTTP ${status}${why}.`);
  }
  const net = networkErrorCode(e);
  const message = err?.message ?? String(e);
  if (net || message === 'fetch failed')
    return new AppError(
      'unavailable',
      `Cannot reach the inference router at ${req.routerUrl}${net ? ` (${net})` : ''}. Check your connection, or the router URL in Settings.`,
    );
  if (message === 'terminated' || /other side closed|socket/i.test(message))
    return new AppError('unavailable', 'The connection to the inference router was lost in the middle of the reply.');
  if (/while streaming the response/.test(message))
    return new AppError(
      'upstream',
      `The provider failed mid-reply: ${message.replace(/^.*while streaming the response: /, '')}`,
    );
  return new AppError('upstream', message);
}

/** One streaming request to the router's OpenAI-compatible `/v1/chat/completions`, through `@huggingface/inference`. */
export async function* providerStream(req: ProviderRequest): AsyncGenerator<ProviderDelta> {
  if (!req.token)
    throw new AppError('unauthorized', 'No Hugging Face token is set — set it in Settings to chat with hosted models.');
  if (!req.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
  // Loaded on the first router reply, not at start-up.
  const { InferenceClient } = await import('@huggingface/inference');
  // No token for the library: the bound fetch adds it where the router is bound.
  const client = new InferenceClient('', {
    endpointUrl: `${req.routerUrl.replace(/\/+$/, '')}/v1`,
    fetch: timeoutFetch(req.timeoutMs ?? 30_000, req.fetch),
    billTo: req.billTo || undefined,
    // The client's own retry repeats a 503 without limit or back-off: the service retries instead.
    retry_on_error: false,
  });
  const { params } = req;
  const args = {
    model: req.provider === 'auto' ? req.model : `${req.model}:${req.provider}`,
    messages: req.messages as ChatCompletionInputMessage[],
    ...(req.tools ? { tools: req.tools as ChatCompletionInput['tools'] } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.top_p !== undefined ? { top_p: params.top_p } : {}),
    ...(params.max_tokens !== undefined ? { max_tokens: params.max_tokens } : {}),
    ...(params.seed !== undefined ? { seed: params.seed } : {}),
    ...(params.stop?.length ? { stop: params.stop } : {}),
  };
  for await (const chunk of client.chatCompletionStream(args, { signal: req.signal })) {
    const choice = chunk.choices?.[0];
    const delta = (choice?.delta ?? {}) as {
      content?: string | null;
      reasoning_content?: string;
      reasoning?: string;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    const out: ProviderDelta = {};
    if (delta.content) out.content = delta.content;
    if (Array.isArray(delta.tool_calls) && delta.tool_calls.length)
      out.toolCalls = delta.tool_calls.map((t, i) => ({
        index: typeof t.index === 'number' ? t.index : i,
        ...(t.id ? { id: t.id } : {}),
        ...(t.function?.name ? { name: t.function.name } : {}),
        ...(typeof t.function?.arguments === 'string' ? { arguments: t.function.arguments } : {}),
      }));
    const thinking = delta.reasoning_content ?? delta.reasoning;
    if (thinking) out.thinking = thinking;
    if (choice?.finish_reason) out.finishReason = choice.finish_reason;
    if (chunk.usage) out.usage = chunk.usage as ProviderDelta['usage'];
    yield out;
  }
}
