import { afterEach, describe, expect, it } from 'vitest';
import type { FixtureServer } from '../fixtures/http-fixture';
import { startHtmlServer, startOpenAIServer, type OpenAIFlavor } from '../fixtures/openai-server';
import { words } from '../fixtures/router';

/**
 * The OpenAI-compatible server fixture checked with plain fetch, so the app's tests stand on servers that behave
 * like the real ones. What each part follows:
 * - llama.cpp `llama-server`: tools/server/README.md (GET /health, /props, /v1/models with `meta`, `timings`),
 *   server.cpp (routes: /models and /v1/models, /health and /v1/health, /chat/completions too), server-http.cpp
 *   (`--api-key` middleware: public /health and model lists, Bearer or X-Api-Key, 401 "Invalid API Key"; 503
 *   "Loading model" on every route before the model is ready; 404 "File Not Found"), server-task.cpp
 *   (`to_json_oaicompat_chat_stream`: first delta `{role, content: null}`, an empty-delta finish chunk, the
 *   `choices: []` usage chunk only with `stream_options.include_usage`, `timings` on the last chunk), the stream
 *   handler (an error event `data: {"error":…}` and no [DONE]), server-context.cpp (`engine_model_info`: `aliases`,
 *   `meta.n_ctx`, the Ollama-style `models` list; replies name the served model), issue ggml-org/llama.cpp#11738 (a
 *   body that is not JSON is a 500 parse_error).
 * - vLLM: entrypoints/openai/models/serving.py and engine/protocol.py (ModelCard `root`, `max_model_len`,
 *   `permission`; 404 "The model `x` does not exist."; ErrorResponse nested since v0.10.1, vllm-project/vllm#22099),
 *   server_utils.py (AuthenticationMiddleware: only /v1 paths, `{"error":"Unauthorized"}`; validation errors are
 *   400 "Bad Request"), the reasoning streaming example (`delta.reasoning`), serving.py (error chunk, then [DONE]).
 * - LM Studio: lmstudio.ai/docs REST API v0 (`/api/v0/models` fields), lmstudio-bug-tracker#618/#2085 (an unknown
 *   path is 200 "Unexpected endpoint or method"), auth errors reported from LM Studio 0.4 (`invalid_api_key`,
 *   "An LM Studio API token is required…", "Malformed LM Studio API token provided…"), "Invalid model identifier"
 *   400s reported from 0.4. Its malformed-body and mid-stream error bodies were not found and are OpenAI-style.
 */

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function start(flavor: OpenAIFlavor, knobs: Parameters<typeof startOpenAIServer>[1] = {}) {
  const s = await startOpenAIServer(flavor, knobs);
  servers.push(s);
  return s;
}

const MODEL: Record<OpenAIFlavor, string> = {
  'llama.cpp': 'Qwen3-0.6B-Q8_0.gguf',
  vllm: 'Qwen/Qwen3-8B',
  lmstudio: 'qwen/qwen3-8b',
};

function chat(
  base: string,
  flavor: OpenAIFlavor,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: MODEL[flavor], messages: [{ role: 'user', content: 'hello there' }], ...body }),
  });
}

/** The raw SSE text split into events; `chunks` are the JSON ones. */
async function readStream(res: Response) {
  const text = await res.text();
  const events = text.split('\n\n').filter(Boolean);
  const chunks = events.filter((e) => e !== 'data: [DONE]').map((e) => JSON.parse(e.replace(/^data: /, '')));
  return { text, events, chunks };
}

type Chunk = { choices: { delta: Record<string, unknown>; finish_reason: string | null }[] };

function joined(chunks: Chunk[], field: string): string {
  return chunks.map((c) => c.choices[0]?.delta[field] ?? '').join('');
}

const flavors: OpenAIFlavor[] = ['llama.cpp', 'vllm', 'lmstudio'];

describe.each(flavors)('%s streaming', (flavor) => {
  it('frames every chunk as `data: {json}` and ends with data: [DONE]', async () => {
    const s = await start(flavor);
    const res = await chat(s.url, flavor, { stream: true });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { text, events, chunks } = await readStream(res);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(joined(chunks, 'content')).toBe('Router says: hello there');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === MODEL[flavor])).toBe(true);
  });

  it('sends usage only when stream_options.include_usage asks, in a last chunk with no choices', async () => {
    const s = await start(flavor);
    const plain = await readStream(await chat(s.url, flavor, { stream: true }));
    expect(plain.chunks.some((c) => 'usage' in c)).toBe(false);

    const asked = await readStream(
      await chat(s.url, flavor, { stream: true, stream_options: { include_usage: true } }),
    );
    const last = asked.chunks.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({
      prompt_tokens: expect.any(Number),
      completion_tokens: words('Router says: hello there').length,
      total_tokens: last.usage.prompt_tokens + last.usage.completion_tokens,
    });
    expect(asked.chunks.filter((c) => 'usage' in c)).toHaveLength(1);
  });

  it('streams tool calls in fragments that concatenate, by index, to the arguments', async () => {
    const s = await start(flavor);
    const args = ['{"city":"Paris","unit":"celsius"}', '{"q":"weather"}'];
    s.script = () => ({
      content: [],
      tool_calls: [
        { name: 'get_weather', arguments: args[0] },
        { name: 'search', arguments: args[1] },
      ],
      argumentChunk: 5,
    });
    const { chunks } = await readStream(await chat(s.url, flavor, { stream: true }));
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    for (const c of chunks) {
      for (const tc of (c.choices[0]?.delta.tool_calls ?? []) as {
        index: number;
        id?: string;
        function: { name?: string; arguments?: string };
      }[]) {
        calls[tc.index] ??= { arguments: '' };
        calls[tc.index].id ??= tc.id;
        calls[tc.index].name ??= tc.function.name;
        calls[tc.index].arguments += tc.function.arguments ?? '';
      }
    }
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([
      ['get_weather', args[0]],
      ['search', args[1]],
    ]);
    expect(calls.every((c) => typeof c.id === 'string' && c.id.length > 0)).toBe(true);
    expect(chunks.filter((c) => c.choices[0]?.delta.tool_calls).length).toBeGreaterThan(4);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('answers a one-token request with one token and finish_reason "length"', async () => {
    const s = await start(flavor);
    const { chunks } = await readStream(await chat(s.url, flavor, { stream: true, max_tokens: 1 }));
    expect(joined(chunks, 'content')).toBe('Router');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('length');

    const whole = await (await chat(s.url, flavor, { max_tokens: 1 })).json();
    expect(whole.choices[0].message.content).toBe('Router');
    expect(whole.choices[0].finish_reason).toBe('length');
    expect(whole.usage.completion_tokens).toBe(1);
  });

  it('drops the connection mid-stream, without [DONE], on a cutAfter fault', async () => {
    const s = await start(flavor);
    s.fault('/v1/chat/completions', { cutAfter: 2, times: 1 });
    const res = await chat(s.url, flavor, { stream: true });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});

describe('reasoning and timings per server', () => {
  it('streams reasoning before content: llama.cpp as reasoning_content, vLLM as reasoning', async () => {
    for (const [flavor, field] of [
      ['llama.cpp', 'reasoning_content'],
      ['vllm', 'reasoning'],
    ] as const) {
      const s = await start(flavor);
      s.script = () => ({ reasoning: ['Think', 'ing.'], content: ['Done.'] });
      const { chunks } = await readStream(await chat(s.url, flavor, { stream: true }));
      expect(joined(chunks, field)).toBe('Thinking.');
      const firstContent = chunks.findIndex((c) => c.choices[0]?.delta.content === 'Done.');
      const lastReasoning = chunks.findLastIndex((c) => c.choices[0]?.delta[field]);
      expect(lastReasoning).toBeLessThan(firstContent);
    }
  });

  it('puts llama.cpp timings on the last chunk (the usage chunk when asked), and nowhere on vLLM or LM Studio', async () => {
    const llama = await start('llama.cpp');
    const plain = await readStream(await chat(llama.url, 'llama.cpp', { stream: true }));
    const last = plain.chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(Object.keys(last.timings)).toEqual([
      'cache_n',
      'prompt_n',
      'prompt_ms',
      'prompt_per_token_ms',
      'prompt_per_second',
      'predicted_n',
      'predicted_ms',
      'predicted_per_token_ms',
      'predicted_per_second',
    ]);
    expect(last.timings.predicted_n).toBe(words('Router says: hello there').length);
    expect(last.timings.predicted_per_second).toBeCloseTo(
      (last.timings.predicted_n * 1000) / last.timings.predicted_ms,
    );
    expect(plain.chunks.slice(0, -1).some((c) => 'timings' in c)).toBe(false);

    const asked = await readStream(
      await chat(llama.url, 'llama.cpp', { stream: true, stream_options: { include_usage: true } }),
    );
    expect(asked.chunks.at(-1).choices).toEqual([]);
    expect(asked.chunks.at(-1).timings.prompt_n).toBe(asked.chunks.at(-1).usage.prompt_tokens);
    expect(asked.chunks.at(-2).timings).toBeUndefined();

    for (const flavor of ['vllm', 'lmstudio'] as const) {
      const s = await start(flavor);
      const { chunks } = await readStream(
        await chat(s.url, flavor, { stream: true, stream_options: { include_usage: true } }),
      );
      expect(chunks.some((c) => 'timings' in c)).toBe(false);
    }
  });

  it('answers stream: false with one chat.completion (llama.cpp with timings)', async () => {
    for (const flavor of flavors) {
      const s = await start(flavor);
      const body = await (await chat(s.url, flavor)).json();
      expect(body.object).toBe('chat.completion');
      expect(body.choices[0].message).toMatchObject({ role: 'assistant', content: 'Router says: hello there' });
      expect(body.choices[0].finish_reason).toBe('stop');
      expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
      expect('timings' in body).toBe(flavor === 'llama.cpp');
    }
  });
});

describe('model lists and server info', () => {
  it('lists models the way each server does', async () => {
    const llama = await (await fetch(`${(await start('llama.cpp')).url}/v1/models`)).json();
    expect(llama.data).toHaveLength(1);
    expect(llama.data[0]).toMatchObject({
      id: MODEL['llama.cpp'],
      aliases: [MODEL['llama.cpp']],
      object: 'model',
      owned_by: 'llamacpp',
    });
    expect(Object.keys(llama.data[0].meta).sort()).toEqual(
      ['n_ctx', 'n_ctx_train', 'n_embd', 'n_params', 'n_vocab', 'size', 'vocab_type'].sort(),
    );
    expect(llama.data[0].meta).toMatchObject({ n_ctx: 4096, n_ctx_train: 40960 });
    // The Ollama-style list llama-server answers beside `data`.
    expect(llama.models[0]).toMatchObject({ name: MODEL['llama.cpp'], capabilities: ['completion'] });

    const vllm = await (await fetch(`${(await start('vllm')).url}/v1/models`)).json();
    expect(vllm.data[0]).toMatchObject({ id: MODEL.vllm, owned_by: 'vllm', root: MODEL.vllm, max_model_len: 32768 });
    expect(vllm.data[0].permission[0].object).toBe('model_permission');

    const lm = await (await fetch(`${(await start('lmstudio')).url}/v1/models`)).json();
    expect(lm.data[0]).toEqual({ id: MODEL.lmstudio, object: 'model', owned_by: 'organization_owner' });
  });

  it('answers /models without /v1 as each real server does: llama.cpp serves it, vLLM 404s, LM Studio says 200 "Unexpected endpoint"', async () => {
    const llama = await start('llama.cpp');
    const res = await fetch(`${llama.url}/models`);
    expect(res.status).toBe(200);
    expect((await res.json()).data[0].id).toBe(MODEL['llama.cpp']);

    const vllm = await fetch(`${(await start('vllm')).url}/models`);
    expect(vllm.status).toBe(404);
    expect(await vllm.json()).toEqual({ detail: 'Not Found' });

    const lm = await fetch(`${(await start('lmstudio')).url}/models`);
    expect(lm.status).toBe(200);
    expect(await lm.json()).toEqual({ error: 'Unexpected endpoint or method. (GET /models)' });
  });

  it('gives llama.cpp /props with the context the server runs, its slots, model path, build and template', async () => {
    const s = await start('llama.cpp');
    const props = await (await fetch(`${s.url}/props`)).json();
    expect(props.default_generation_settings.n_ctx).toBe(4096);
    expect(props).toMatchObject({ total_slots: 4, model_path: `/models/${MODEL['llama.cpp']}` });
    expect(props.build_info).toMatch(/^b\d+-[0-9a-f]+$/);
    expect(props.chat_template).toContain('<|im_start|>');
  });

  it('answers every llama.cpp route 503 "Loading model" while loading, then /health ok', async () => {
    const s = await start('llama.cpp', { loading: true });
    const loadingBody = { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } };
    for (const path of ['/health', '/v1/models', '/props']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual(loadingBody);
    }
    expect((await chat(s.url, 'llama.cpp')).status).toBe(503);
    s.loading = false;
    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('lists LM Studio /api/v0/models with type, publisher, arch, format, quantization, state and context', async () => {
    const s = await start('lmstudio');
    const body = await (await fetch(`${s.url}/api/v0/models`)).json();
    expect(body.object).toBe('list');
    expect(body.data[0]).toEqual({
      id: MODEL.lmstudio,
      object: 'model',
      type: 'llm',
      publisher: 'qwen',
      arch: 'qwen3',
      compatibility_type: 'gguf',
      quantization: 'Q4_K_M',
      state: 'loaded',
      max_context_length: 32768,
    });
    expect(body.data[1]).toMatchObject({ type: 'embeddings', state: 'not-loaded' });
  });
});

describe('keys', () => {
  const key = 'sk-local-test-0123456789';

  it('answers a request without the key 401 with each server’s own body', async () => {
    const bodies: Record<OpenAIFlavor, unknown> = {
      'llama.cpp': { error: { code: 401, message: 'Invalid API Key', type: 'authentication_error' } },
      vllm: { error: 'Unauthorized' },
      lmstudio: {
        error: {
          type: 'invalid_request',
          code: 'invalid_api_key',
          message: expect.stringMatching(/^An LM Studio API token is required to make requests to this server/),
        },
      },
    };
    for (const flavor of flavors) {
      const s = await start(flavor, { apiKey: key });
      const res = await chat(s.url, flavor);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(bodies[flavor]);
      const ok = await chat(s.url, flavor, {}, { authorization: `Bearer ${key}` });
      expect(ok.status).toBe(200);
      expect(s.requests.map((r) => r.headers.authorization)).toEqual([undefined, `Bearer ${key}`]);
    }
  });

  it('guards the routes each server guards: llama.cpp leaves /health and /v1/models open, vLLM only /v1, LM Studio all', async () => {
    const llama = await start('llama.cpp', { apiKey: key });
    expect((await fetch(`${llama.url}/health`)).status).toBe(200);
    expect((await fetch(`${llama.url}/v1/models`)).status).toBe(200);
    expect((await fetch(`${llama.url}/props`)).status).toBe(401);
    expect((await chat(llama.url, 'llama.cpp', {}, { 'x-api-key': key })).status).toBe(200);

    const vllm = await start('vllm', { apiKey: key });
    expect((await fetch(`${vllm.url}/health`)).status).toBe(200);
    expect((await fetch(`${vllm.url}/v1/models`)).status).toBe(401);
    expect((await fetch(`${vllm.url}/v1/models`, { headers: { authorization: `bearer ${key}` } })).status).toBe(200);

    const lm = await start('lmstudio', { apiKey: key });
    expect((await fetch(`${lm.url}/api/v0/models`)).status).toBe(401);
    const wrong = await fetch(`${lm.url}/v1/models`, { headers: { authorization: 'Bearer sk-wrong-key-abcdef' } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.message).toBe(
      'Malformed LM Studio API token provided: sk-wrong-k... Ensure you are using a valid token.',
    );
  });

  it('redirects every request with 302 to the same path on another server', async () => {
    const s = await start('vllm', { apiKey: key });
    s.redirectTo('http://127.0.0.1:9/elsewhere/');
    const res = await fetch(`${s.url}/v1/models?x=1`, {
      redirect: 'manual',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://127.0.0.1:9/v1/models?x=1');
    s.redirectTo(undefined);
    expect((await fetch(`${s.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });
});

describe('errors', () => {
  it('refuses an unknown model: vLLM 404, LM Studio 400, while llama.cpp serves its one model whatever the name', async () => {
    const vllm = await start('vllm');
    const v = await chat(vllm.url, 'vllm', { model: 'nope/model' });
    expect(v.status).toBe(404);
    expect(await v.json()).toEqual({
      error: { message: 'The model `nope/model` does not exist.', type: 'NotFoundError', param: 'model', code: 404 },
    });
    vllm.legacyErrors = true;
    expect(await (await chat(vllm.url, 'vllm', { model: 'nope/model' })).json()).toEqual({
      object: 'error',
      message: 'The model `nope/model` does not exist.',
      type: 'NotFoundError',
      param: 'model',
      code: 404,
    });

    const lm = await start('lmstudio');
    const l = await chat(lm.url, 'lmstudio', { model: 'nope' });
    expect(l.status).toBe(400);
    expect(await l.json()).toEqual({
      error: {
        message: 'Invalid model identifier "nope". Please specify a valid downloaded model (e.g., qwen/qwen3-8b).',
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });

    const llama = await start('llama.cpp');
    const any = await chat(llama.url, 'llama.cpp', { model: 'gpt-4o' });
    expect(any.status).toBe(200);
    expect((await any.json()).model).toBe(MODEL['llama.cpp']);
  });

  it('answers a body that is not JSON: llama.cpp 500 parse_error, vLLM and LM Studio 400', async () => {
    const expected: Record<OpenAIFlavor, [number, RegExp]> = {
      'llama.cpp': [500, /^\[json\.exception\.parse_error\.101\] parse error/],
      vllm: [400, /json_invalid/],
      lmstudio: [400, /JSON/],
    };
    for (const flavor of flavors) {
      const s = await start(flavor);
      const res = await fetch(`${s.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"model": ',
      });
      expect(res.status).toBe(expected[flavor][0]);
      expect((await res.json()).error.message).toMatch(expected[flavor][1]);
    }
  });

  it('failWith answers the next request with the status and the flavour’s body, then serves again', async () => {
    const s = await start('llama.cpp');
    s.failWith(503);
    const res = await chat(s.url, 'llama.cpp');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { code: 503, message: 'Loading model', type: 'unavailable_error' } });
    expect((await chat(s.url, 'llama.cpp')).status).toBe(200);
  });

  it('ends a stream with an error event: llama.cpp stops there, vLLM still sends [DONE]', async () => {
    for (const flavor of ['llama.cpp', 'vllm'] as const) {
      const s = await start(flavor);
      s.script = () => ({ content: ['a', 'b', 'c'], errorAfter: { chunks: 2, message: 'boom' } });
      const { text, chunks } = await readStream(await chat(s.url, flavor, { stream: true }));
      expect(chunks.at(-1).error.message).toBe('boom');
      expect(text.endsWith('data: [DONE]\n\n')).toBe(flavor === 'vllm');
    }
  });

  it('startHtmlServer answers any path with an HTML page', async () => {
    const html = await startHtmlServer();
    servers.push(html);
    const res = await fetch(`${html.url}/v1/models`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/^<!doctype html>/);
  });
});
