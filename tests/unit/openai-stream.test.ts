import { describe, expect, it } from 'vitest';
import { openAIFigures } from '../../electron/main/services/engines/figures';
import {
  OpenAIHttpError,
  StreamCut,
  openAIStream,
  type OpenAIDelta,
} from '../../electron/main/services/engines/openai-stream';

/** A fetch that answers every request with `parts` as the body, one read each, and remembers the request. */
function serve(
  parts: (string | Uint8Array)[],
  init: ResponseInit = { headers: { 'content-type': 'text/event-stream' } },
) {
  const seen: { url: string; body: unknown; headers: Headers }[] = [];
  const fetch = (async (url: string, req: RequestInit) => {
    seen.push({ url, body: JSON.parse(String(req.body)), headers: new Headers(req.headers) });
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        const next = parts.shift();
        if (next === undefined) c.close();
        else c.enqueue(typeof next === 'string' ? enc.encode(next) : next);
      },
    });
    return new Response(body, init);
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

async function collect(fetch: typeof globalThis.fetch): Promise<OpenAIDelta[]> {
  const out: OpenAIDelta[] = [];
  for await (const d of openAIStream({
    baseUrl: 'http://127.0.0.1:8080/v1/',
    fetch,
    body: { model: 'm', messages: [] },
    headers: { 'X-Test': '1' },
    signal: new AbortController().signal,
    timeoutMs: 1_000,
  }))
    out.push(d);
  return out;
}

const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }], ...extra });

describe('the OpenAI-protocol stream client', () => {
  it('reads SSE split anywhere, CRLF or LF, with or without a space after "data:", comments skipped', async () => {
    const text =
      `: keep-alive\r\n\r\n` +
      `data: ${chunk({ role: 'assistant', content: null })}\r\n\r\n` +
      `data:${chunk({ reasoning_content: 'hmm' })}\n\n` +
      `data: ${chunk({ reasoning: ' more' })}\n\n` +
      `event: message\ndata: ${chunk({ content: 'Hé' })}\n\n` +
      `data: ${chunk({}, 'stop', { timings: { predicted_per_second: 12.5 } })}\n\n` +
      `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } })}\n\n` +
      `data: [DONE]\n\n`;
    // Cut into reads of 1 and 7 bytes: events, lines and the two bytes of "é" straddle them.
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 7]) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) parts.push(bytes.slice(i, i + size));
      const { fetch, seen } = serve(parts);
      const out = await collect(fetch);
      expect(out.filter((d) => d.thinking).map((d) => d.thinking)).toEqual(['hmm', ' more']);
      expect(out.filter((d) => d.content).map((d) => d.content)).toEqual(['Hé']);
      expect(out.find((d) => d.finishReason)).toMatchObject({
        finishReason: 'stop',
        timings: { predicted_per_second: 12.5 },
      });
      expect(out.at(-1)!.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2 });
      expect(seen[0].url).toBe('http://127.0.0.1:8080/v1/chat/completions');
      expect(seen[0].body).toEqual({ model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
      expect(seen[0].headers.get('x-test')).toBe('1');
    }
  });

  it('a stream that ends after its finish reason without [DONE] is a reply; one that ends before is a cut', async () => {
    const done = await collect(serve([`data: ${chunk({ content: 'a' })}\n\ndata: ${chunk({}, 'stop')}\n\n`]).fetch);
    expect(done.map((d) => d.content ?? d.finishReason)).toEqual(['a', 'stop']);
    await expect(collect(serve([`data: ${chunk({ content: 'a' })}\n\n`]).fetch)).rejects.toBeInstanceOf(StreamCut);
  });

  it('an error event, an event that is not JSON, an HTML page and an error status each throw what they were', async () => {
    const mid = await collect(
      serve([`data: ${chunk({ content: 'a' })}\n\ndata: {"error":{"message":"boom"}}\n\n`]).fetch,
    ).catch((e: unknown) => e);
    expect(mid).toMatchObject({
      kind: 'midStream',
      httpResponse: { status: 200, body: { error: { message: 'boom' } } },
    });
    const garbage = await collect(serve([`data: <b>hi</b>\n\n`]).fetch).catch((e: unknown) => e);
    expect(garbage).toMatchObject({ kind: 'notOpenAI' });
    const html = await collect(
      serve(['<html>It works</html>'], { headers: { 'content-type': 'text/html; charset=utf-8' } }).fetch,
    ).catch((e: unknown) => e);
    expect(html).toBeInstanceOf(OpenAIHttpError);
    expect(html).toMatchObject({ kind: 'notOpenAI', contentType: 'text/html; charset=utf-8' });
    const status = await collect(
      serve(['{"error":{"message":"no"}}'], { status: 401, headers: { 'content-type': 'application/json' } }).fetch,
    ).catch((e: unknown) => e);
    expect(status).toMatchObject({ kind: 'status', httpResponse: { status: 401, body: { error: { message: 'no' } } } });
  });
});

describe('per-reply figures of an OpenAI-protocol reply', () => {
  const clock = { started: 1_000, firstToken: 1_500, end: 3_500 };

  it("llama.cpp's timings are the server's own", () => {
    const f = openAIFigures(
      {
        timings: { prompt_n: 40, prompt_per_second: 400, predicted_n: 100, predicted_per_second: 50 },
        usage: { prompt_tokens: 1, completion_tokens: 1 },
        finishReason: 'stop',
      },
      clock,
    );
    expect(f).toEqual({
      source: 'server',
      ttftMs: 500,
      totalMs: 2_500,
      doneReason: 'stop',
      promptTokens: 40,
      evalTokens: 100,
      promptTokensPerSecond: 400,
      tokensPerSecond: 50,
    });
  });

  it('usage counts with the speeds measured: generation after the first token, the prompt before it', () => {
    const f = openAIFigures({ usage: { prompt_tokens: 100, completion_tokens: 41 }, finishReason: 'length' }, clock);
    expect(f).toEqual({
      source: 'measured',
      ttftMs: 500,
      totalMs: 2_500,
      doneReason: 'length',
      promptTokens: 100,
      evalTokens: 41,
      // 40 tokens after the first one, in 2 s; 100 prompt tokens before the first, in 0.5 s.
      tokensPerSecond: 20,
      promptTokensPerSecond: 200,
    });
  });

  it('no usage and no first token: only the time is known', () => {
    expect(openAIFigures({}, { started: 0, end: 10 })).toEqual({ source: 'measured', totalMs: 10 });
  });
});
