import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIFlavor, type OpenAIServerFixture } from '../fixtures/openai-server';
import { startTestApp, type TestApp } from '../helpers/app';

const CHAT = '/v1/chat/completions';
/** The first bytes of a PNG and of a JPEG, base64-encoded as the chat keeps attachments. */
const PNG = 'iVBORw0KGgoAAAANSUhEUg==';
const JPEG = '/9j/4AAQSkZJRgABAQ==';

/**
 * Images attached to a message go to an endpoint model that takes them (LM Studio `type: vlm`, llama.cpp `/props`
 * `modalities.vision`) as OpenAI `image_url` parts; a text model gets none, and the reply says so.
 */
describe('images on an endpoint', () => {
  let app: TestApp;
  const servers = {} as Record<OpenAIFlavor, OpenAIServerFixture>;
  const endpointOf = {} as Record<OpenAIFlavor, string>;

  beforeAll(async () => {
    for (const f of ['llama.cpp', 'lmstudio', 'vllm'] as const) servers[f] = await startOpenAIServer(f);
    servers['llama.cpp'].models[0].vision = true;
    servers.lmstudio.models[0].vision = true;
    app = await startTestApp({ chat: { endpointTimeoutMs: 2_000 } });
    for (const f of ['llama.cpp', 'lmstudio', 'vllm'] as const)
      endpointOf[f] = (
        await app.client.call('endpoints.save', { name: `My ${f}`, preset: f, baseUrl: servers[f].url })
      ).endpoint.id;
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  });

  async function sendWithImages(f: OpenAIFlavor) {
    const conv = await app.client.call('chat.create', {
      backend: 'endpoint',
      endpoint: endpointOf[f],
      model: servers[f].models[0].id,
    });
    servers[f].requests.length = 0;
    const { capabilities } = await app.client.call('chat.capabilities', { id: conv.id });
    const { messages } = await app.client.stream(
      'chat.send',
      { id: conv.id, content: 'What is in these?', images: [PNG, JPEG] },
      () => {},
    ).result;
    const body = servers[f].requestsTo(CHAT)[0].body as { messages: { role: string; content: unknown }[] };
    return { capabilities, reply: messages.at(-1)!, sent: body.messages.at(-1)! };
  }

  for (const f of ['llama.cpp', 'lmstudio'] as const)
    it(`${f}: a vision model offers images and gets them as image_url parts after the text`, async () => {
      const { capabilities, reply, sent } = await sendWithImages(f);
      expect(capabilities).toContain('vision');
      expect(sent).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG}` } },
        ],
      });
      expect(reply).toMatchObject({ status: 'complete' });
      expect(reply.notice ?? '').not.toMatch(/Images/);
    });

  it('a text model (vLLM says nothing of images) gets none, and the reply says so', async () => {
    const { capabilities, reply, sent } = await sendWithImages('vllm');
    expect(capabilities).not.toContain('vision');
    expect(sent).toEqual({ role: 'user', content: 'What is in these?' });
    expect(reply.status).toBe('complete');
    expect(reply.notice).toMatch(/^Images were not sent: My vllm does not say Qwen\/Qwen3-8B takes images/);
  });
});
