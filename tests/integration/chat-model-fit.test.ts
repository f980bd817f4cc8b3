import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRouterFixture, words, type RouterFixture } from '../fixtures/router';
import { startTestApp, type TestApp } from '../helpers/app';

const HUB_ID = 'meta-llama/Llama-3.1-8B-Instruct';
const GGUF_TAG = 'hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M';

/** A model id fits its engine, and a reply the router cannot give is refused before anything is written or sent. */
describe('chat model ids and the router key (real layers, router fixture)', () => {
  let router: RouterFixture;
  let app: TestApp;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    router = await startRouterFixture();
    router.chunkIntervalMs = 1;
    router.script = () => ({ content: words('Hosted answer.') });
    app = await startTestApp({ env: { HF_TOKEN: 'hf_testTokenValue9876', HUBDESK_ROUTER_URL: router.url } });
  });
  afterEach(() => {
    router.requests.length = 0;
  });
  afterAll(async () => {
    await Promise.all([app, ...apps].map((a) => a?.close()));
    await router?.stop();
  });
  const other = async (opts: Parameters<typeof startTestApp>[0]) => {
    const a = await startTestApp(opts);
    apps.push(a);
    return a;
  };

  it('an Ollama tag is refused as a router model, on create and on update, with what the router needs', async () => {
    for (const model of [GGUF_TAG, 'llama3.2:1b'])
      await expect(app.client.call('chat.create', { backend: 'provider', model })).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(new RegExp(`is not a Hub model id: the HF router needs owner/name`)),
      });
    const conv = await app.client.call('chat.create', { backend: 'provider', model: HUB_ID });
    await expect(
      app.client.call('chat.update', { id: conv.id, patch: { model: 'llama3.2:1b' } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(
      app.client.call('chat.update', { id: conv.id, patch: { backend: 'provider', model: GGUF_TAG } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect((await app.client.call('chat.get', { id: conv.id })).meta.model).toBe(HUB_ID);
  });

  it('switching the engine keeps the model only if it fits the new one, else leaves it to be chosen', async () => {
    const local = await app.client.call('chat.create', { backend: 'ollama', model: GGUF_TAG });
    const routed = await app.client.call('chat.update', { id: local.id, patch: { backend: 'provider' } });
    expect(routed).toMatchObject({ backend: 'provider', model: '' });
    const chosen = await app.client.call('chat.update', { id: local.id, patch: { model: HUB_ID } });
    expect(chosen).toMatchObject({ backend: 'provider', model: HUB_ID });
    // A Hub id is not an Ollama model name either.
    expect(await app.client.call('chat.update', { id: local.id, patch: { backend: 'ollama' } })).toMatchObject({
      backend: 'ollama',
      model: '',
    });
    // A switch that names its model keeps it; a patch without a new engine leaves the model alone.
    const both = await app.client.call('chat.update', { id: local.id, patch: { backend: 'provider', model: HUB_ID } });
    expect(both.model).toBe(HUB_ID);
    expect((await app.client.call('chat.update', { id: local.id, patch: { title: 'Kept' } })).model).toBe(HUB_ID);
  });

  it('a conversation saved with an Ollama tag on the router is refused before the question is written', async () => {
    const conv = await app.client.call('chat.create', { backend: 'ollama', model: GGUF_TAG });
    // As an earlier HubDesk saved it: the engine switched, the tag kept.
    app.services.chat.store.update(conv.id, { backend: 'provider' });
    const h = app.client.stream('chat.send', { id: conv.id, content: 'hi' }, () => {});
    await expect(h.result).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining(`“${GGUF_TAG}” is not a Hub model id`),
    });
    expect(router.requestsTo('/v1/chat/completions')).toHaveLength(0);
    expect((await app.client.call('chat.get', { id: conv.id })).messages).toEqual([]);
  });

  it('with no Hugging Face token, sending or regenerating on the router says where to set it; nothing is sent', async () => {
    const bare = await other({});
    await bare.client.call('settings.update', { routerUrl: router.url });
    const conv = await bare.client.call('chat.create', { backend: 'provider', model: HUB_ID });
    for (const start of [
      () => bare.client.stream('chat.send', { id: conv.id, content: 'hi' }, () => {}),
      () => bare.client.stream('chat.regenerate', { id: conv.id }, () => {}),
    ])
      await expect(start().result).rejects.toMatchObject({
        code: 'unauthorized',
        message: 'Set a Hugging Face token in Settings → Secrets to chat with hosted models.',
      });
    expect(router.requests).toHaveLength(0);
    expect((await bare.client.call('chat.get', { id: conv.id })).meta.messageCount).toBe(0);
  });

  it('a token held back from a router set in the page says to approve that host; nothing is sent', async () => {
    const held = await other({ env: { HF_TOKEN: 'hf_testTokenValue9876' } });
    await held.client.call('settings.update', { routerUrl: router.url });
    const conv = await held.client.call('chat.create', { backend: 'provider', model: HUB_ID });
    await expect(
      held.client.stream('chat.send', { id: conv.id, content: 'hi' }, () => {}).result,
    ).rejects.toMatchObject({
      code: 'unauthorized',
      message: expect.stringMatching(
        /^Your Hugging Face token is not sent to http:\/\/127\.0\.0\.1:\d+.*Where your keys go/,
      ),
    });
    expect(router.requests).toHaveLength(0);
  });

  it('with the token bound to the router, the same conversation is answered', async () => {
    const conv = await app.client.call('chat.create', { backend: 'provider', model: HUB_ID });
    const r = await app.client.stream('chat.send', { id: conv.id, content: 'hi' }, () => {}).result;
    expect(r.messages.at(-1)).toMatchObject({ status: 'complete', content: 'Hosted answer.' });
  });
});
