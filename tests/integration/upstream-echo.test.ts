import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixtureServer, json } from '../fixtures/http-fixture';
import { startTestApp, type TestApp } from '../helpers/app';

const HF_TOKEN = 'hf_echoTestToken0000dddd';

/**
 * A Hub and router that got the token legitimately (both bound through the environment) and echo the Authorization
 * header back in their error texts: as a 4xx/5xx body and header, or (`midStream`) as the SSE error event of a started reply.
 */
class Echo extends FixtureServer {
  status = 400;
  midStream = false;
  constructor() {
    super(({ req, res, url }) => {
      const echo = `bad token ${req.headers.authorization ?? '(none)'}`;
      if (this.midStream && url.pathname === '/v1/chat/completions') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = { choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' } }] };
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        // Split across two writes: the mask must hold a secret's start until it sees the rest.
        const event = `data: ${JSON.stringify({ error: { message: echo, type: 'server_error' } })}\n\n`;
        const cut = event.indexOf(HF_TOKEN) + 5;
        res.write(event.slice(0, cut));
        setTimeout(() => res.end(event.slice(cut)), 20);
        return;
      }
      return json(res, this.status, { error: echo }, { 'x-error-code': echo });
    });
  }
}

async function settle(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => v,
    (e: unknown) => e,
  );
}

/** Every error as the page gets it, its details included. */
const shown = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (x instanceof Error ? { ...x, message: x.message } : x));

/** Every file the app wrote (the chat database, its journal, caches, logs). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('an upstream that echoes the key', () => {
  let echo: Echo;
  let app: TestApp | undefined;
  beforeEach(async () => {
    echo = await new Echo().start();
    app = await startTestApp({
      env: { HF_TOKEN, HF_ENDPOINT: echo.url, HUBDESK_ROUTER_URL: echo.url },
      hub: { sleep: async () => {} },
      chat: { retryBaseMs: 1 },
    });
    await app.client.call('settings.update', { hubAccess: 'online' });
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await echo.stop();
  });

  it.each([400, 500])('Hub %i: the error the page gets holds the echo, masked', async (status) => {
    echo.status = status;
    const errors = [
      await settle(app!.client.call('hub.model', { id: 'a/b' })),
      await settle(app!.client.call('hub.search', { search: 'x' })),
      await settle(app!.client.call('hub.ggufHeader', { id: 'a/b', file: 'x.gguf' })),
    ];
    expect(echo.requests[0].headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
    expect(shown(errors[0])).toContain('bad token Bearer ***');
    expect(shown(errors)).not.toContain(HF_TOKEN);
  });

  it.each([
    ['a 400', false],
    ['an error event mid-reply', true],
  ] as const)('router, %s: neither the reply error nor the stored chat holds the key', async (_what, midStream) => {
    echo.midStream = midStream;
    const conv = await app!.client.call('chat.create', {
      backend: 'provider',
      model: 'meta-llama/Llama-3.1-8B-Instruct',
    });
    const err = await settle(app!.client.stream('chat.send', { id: conv.id, content: 'hi' }, () => {}).result);
    expect(shown(err)).toContain('bad token Bearer ***');
    const stored = [
      await app!.client.call('chat.get', { id: conv.id }),
      await app!.client.call('chat.export', { id: conv.id, format: 'json' }),
      await app!.client.call('chat.export', { id: conv.id, format: 'markdown' }),
    ];
    expect(shown(stored)).toContain('bad token Bearer ***');
    expect(shown([err, stored])).not.toContain(HF_TOKEN);
    await app!.services.dispose();
    for (const file of filesUnder(app!.dataDir)) expect(readFileSync(file).includes(HF_TOKEN), file).toBe(false);
  });
});
