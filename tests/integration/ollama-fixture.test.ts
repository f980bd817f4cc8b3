import { Ollama } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed wire JSON, checked field by field
type Line = Record<string, any>;

/** The fixture itself, driven by the real ollama-js client: framing, fields and errors follow the reference. */
describe('Ollama fixture', () => {
  let fx: OllamaFixture;
  let client: Ollama;
  beforeAll(async () => {
    fx = await startOllamaFixture({ models: [fixtureModel('llama3.2'), fixtureModel('qwen3:0.6b')] });
    client = new Ollama({ host: fx.url });
  });
  afterAll(() => fx.stop());

  const raw = async (path: string, body: unknown) => {
    const r = await fetch(fx.url + path, { method: 'POST', body: JSON.stringify(body) });
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  };

  it('streams chat chunks with thinking, tool calls and a final chunk with the six metrics', async () => {
    fx.chatScript = () => ({
      thinking: ['Let', ' me'],
      content: ['The', ' answer'],
      tool_calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }],
    });
    const r = await raw('/api/chat', { model: 'qwen3:0.6b', messages: [{ role: 'user', content: 'hi' }], think: true });
    expect(r.type).toBe('application/x-ndjson');
    const lines = r.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(lines.map((l) => l.message.thinking ?? l.message.content)).toEqual(['Let', ' me', 'The', ' answer', '', '']);
    expect(lines[0].message).toEqual({ role: 'assistant', content: '', thinking: 'Let' });
    expect(lines[0]).not.toHaveProperty('done_reason');
    const call = lines[4].message.tool_calls[0];
    expect(call.id).toMatch(/^call_[a-z0-9]{8}$/);
    expect(call.function).toEqual({ index: 0, name: 'get_weather', arguments: { city: 'Tokyo' } });
    const last = lines.at(-1)!;
    expect(last).toMatchObject({ done: true, done_reason: 'stop', message: { role: 'assistant', content: '' } });
    for (const k of [
      'total_duration',
      'load_duration',
      'prompt_eval_count',
      'prompt_eval_duration',
      'eval_count',
      'eval_duration',
    ]) {
      expect(Number.isInteger(last[k])).toBe(true);
    }
  });

  it('answers stream:false with the whole reply, and empty messages with done_reason load', async () => {
    fx.chatScript = () => ({ content: ['Hello', ' there'] });
    const whole = await client.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'x' }], stream: false });
    expect(whole.message.content).toBe('Hello there');
    expect(whole.done_reason).toBe('stop');
    const load = await client.chat({ model: 'llama3.2', messages: [] });
    expect(load.done_reason).toBe('load');
    const ps = await client.ps();
    expect(ps.models.map((m) => m.name)).toContain('llama3.2:latest');
  });

  it('sends errors before the first byte as JSON with a status, and after it as an NDJSON line', async () => {
    fx.chatScript = () => ({ content: ['a', 'b', 'c'], error: { afterChunks: 0, message: 'boom', status: 500 } });
    let r = await raw('/api/chat', { model: 'llama3.2', messages: [{ role: 'user', content: 'x' }] });
    expect([r.status, r.type, r.text]).toEqual([500, 'application/json; charset=utf-8', '{"error":"boom"}']);
    fx.chatScript = () => ({ content: ['a', 'b', 'c'], error: { afterChunks: 2, message: 'boom' } });
    r = await raw('/api/chat', { model: 'llama3.2', messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(200);
    expect(r.text.trimEnd().split('\n').at(-1)).toBe('{"error":"boom"}');
    r = await raw('/api/chat', { model: 'nope', messages: [] });
    expect([r.status, r.text]).toEqual([404, `{"error":"model 'nope' not found"}`]);
    r = await raw('/api/chat', { model: 'llama3.2', messages: [], think: true });
    expect([r.status, r.text]).toEqual([400, '{"error":"\\"llama3.2\\" does not support thinking"}']);
  });

  it('generates with response chunks and a context on the final chunk', async () => {
    fx.chatScript = () => ({ content: ['Hi', '!'] });
    const parts = [];
    for await (const p of await client.generate({ model: 'llama3.2', prompt: 'hello', stream: true })) parts.push(p);
    expect(parts.map((p) => p.response)).toEqual(['Hi', '!', '']);
    expect(parts.at(-1)).toMatchObject({ done: true, done_reason: 'stop' });
    expect(parts.at(-1)!.context.length).toBeGreaterThan(0);
    const load = await client.generate({ model: 'llama3.2', prompt: '' });
    expect(load.done_reason).toBe('load');
  });

  it('creates, shows, copies, embeds and deletes models', async () => {
    const lines = [];
    for await (const p of await client.create({
      model: 'pirate',
      from: 'llama3.2',
      system: 'Talk like a pirate.',
      parameters: { temperature: 0.2 },
      stream: true,
    }))
      lines.push(p.status);
    expect(lines[0]).toBe('reading model metadata');
    expect(lines.slice(-2)).toEqual(['writing manifest', 'success']);
    const show = await client.show({ model: 'pirate' });
    expect(show.system).toBe('Talk like a pirate.');
    expect(show.parameters).toContain('temperature                    0.2');
    await client.copy({ source: 'pirate', destination: 'pirate2' });
    await expect(client.copy({ source: 'ghost', destination: 'x' })).rejects.toMatchObject({
      status_code: 404,
      message: 'model "ghost" not found',
    });
    const e = await client.embed({ model: 'pirate2', input: ['a', 'b'], dimensions: 8 });
    expect(e.embeddings.map((v) => v.length)).toEqual([8, 8]);
    await client.delete({ model: 'pirate2' });
    await expect(client.delete({ model: 'pirate2' })).rejects.toMatchObject({
      status_code: 404,
      message: "model 'pirate2' not found",
    });
  });

  it('injects stream faults and Ollama status texts', async () => {
    fx.streamFault('/api/pull', { invalidLineAfter: 1, times: 1 });
    const r = await raw('/api/pull', { name: 'llama3.2' });
    expect(r.text.split('\n')[1]).toBe('{"status": this is not json');
    fx.failWith('/api/tags', 503, { times: 1 });
    await expect(client.list()).rejects.toMatchObject({
      status_code: 503,
      message: 'server busy, please try again.  maximum pending requests exceeded',
    });
    fx.failWith('/api/tags', 502, { times: 1 });
    await expect(client.list()).rejects.toMatchObject({ status_code: 502, message: 'Error 502: Bad Gateway' });
    expect((await client.list()).models.length).toBeGreaterThan(0);
  });
});
