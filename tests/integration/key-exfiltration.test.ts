import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import type { ModelRecord } from '@shared/model-record';
import type { ApprovalRequest } from '../../electron/main/services/net/key-bindings';
import { FixtureServer, json, type RecordedRequest } from '../fixtures/http-fixture';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, type TestApp } from '../helpers/app';
import { webToolsAllowed } from '../helpers/tools';

const HF_TOKEN = 'hf_exfilTestToken0000aaaa';
const FAL_KEY = 'fal-exfil-id:fal-exfil-secret-bbbb';
const OLLAMA_API_KEY = 'ollama-exfil-key-cccc-1234';
const ALL = [HF_TOKEN, FAL_KEY, OLLAMA_API_KEY];

/**
 * A server a script in the page would point an endpoint at: it answers every request plausibly (a Hub search
 * list, an OpenAI-style error, and for fal a "token" that echoes whatever key it was sent) and records it all.
 */
class Spy extends FixtureServer {
  constructor() {
    super(({ req, res, url }) => {
      if (url.pathname === '/tokens/')
        return json(res, 201, /^Key (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? 'x');
      if (url.pathname.startsWith('/api/models')) return json(res, 200, []);
      return json(res, 401, { error: 'Invalid credentials' });
    });
  }
  /** Every byte of every request the spy saw, so a key anywhere in it is found. */
  seen(): string {
    return this.requests.map((r: RecordedRequest) => JSON.stringify([r.path, r.headers, r.body])).join('\n');
  }
}

async function settle(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => v,
    (e: unknown) => e,
  );
}

/** Everything that makes each key travel: every Hub call, provider chat, fal tokens, Ollama calls. */
async function useEveryKey(app: TestApp): Promise<unknown[]> {
  const calls: (() => Promise<unknown>)[] = [
    () => app.client.call('hub.search', { search: 'llama' }),
    () => app.client.call('hub.model', { id: 'a/b' }),
    () => app.client.call('hub.derived', { id: 'a/b', relation: 'quantized' }),
    () => app.client.call('hub.repo', { kind: 'dataset', id: 'a/b' }),
    () => app.client.call('hub.readme', { kind: 'model', id: 'a/b' }),
    () => app.client.call('hub.tree', { kind: 'model', id: 'a/b' }),
    () => app.client.call('hub.ggufHeader', { id: 'a/b', file: 'x.gguf' }),
    () => app.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' }),
    () => app.client.call('ollama.version', {}),
    () => app.client.call('ollama.show', { model: 'llama3.2' }),
  ];
  const out: unknown[] = [];
  for (const c of calls) out.push(await settle(c()));
  const conv = await app.client.call('chat.create', { backend: 'provider', model: 'meta-llama/Llama-3.1-8B-Instruct' });
  out.push(await settle(app.client.stream('chat.send', { id: conv.id, content: 'hi' }, () => {}).result));
  return out;
}

describe('keys never reach a host set from the page', () => {
  let spy: Spy;
  let app: TestApp | undefined;
  beforeEach(async () => {
    spy = await new Spy().start();
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await spy.stop();
  });

  it.each(['hubEndpoint', 'routerUrl', 'falRestBase', 'ollamaHost'] as const)(
    'settings.update(%s → spy): no key arrives, and nothing the page gets back holds one',
    async (setting) => {
      app = await startTestApp({ env: { HF_TOKEN, FAL_KEY, OLLAMA_API_KEY } });
      await app.client.call('settings.update', { hubAccess: 'online', [setting]: spy.url });
      const answers = await useEveryKey(app);
      for (const key of ALL) expect(spy.seen()).not.toContain(key);
      const back = JSON.stringify(answers, (_k, v: unknown) => (v instanceof Error ? { ...v, m: v.message } : v));
      for (const key of ALL) expect(back).not.toContain(key);
      const view = await app.client.call('settings.get', {});
      expect(view.bindings.find((b) => b.setting === setting)).toMatchObject({ origin: spy.url, bound: false });
    },
  );

  it('all endpoints at the spy at once: every service still runs, the spy sees no key', async () => {
    app = await startTestApp({ env: { HF_TOKEN, FAL_KEY, OLLAMA_API_KEY } });
    await app.client.call('settings.update', {
      hubAccess: 'online',
      hubEndpoint: spy.url,
      routerUrl: `${spy.url}/`,
      falRestBase: spy.url.replace('127.0.0.1', 'localhost'),
      ollamaHost: spy.url,
    });
    await useEveryKey(app);
    expect(spy.requests.length).toBeGreaterThan(0);
    for (const key of ALL) expect(spy.seen()).not.toContain(key);
  });

  it('fal.tempToken says the key is withheld, and never returns an echo', async () => {
    app = await startTestApp({ env: { FAL_KEY } });
    await app.client.call('settings.update', { falRestBase: spy.url });
    const e = (await settle(app.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' }))) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe('forbidden');
    expect(e.message).toMatch(/not approved/);
    expect(spy.requestsTo('/tokens/')).toHaveLength(0);
  });

  it('an approved fal host that echoes the key back gets it refused as a token', async () => {
    app = await startTestApp({ env: { FAL_KEY, HUBDESK_FAL_REST_BASE: spy.url } });
    const e = (await settle(app.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' }))) as AppError;
    expect(e.code).toBe('upstream');
    expect(e.message).not.toContain(FAL_KEY);
  });

  it('the Ollama API key goes to ollama.com and an approved host only', () => {
    return (async () => {
      app = await startTestApp({ env: { OLLAMA_API_KEY } });
      const keys = app.services.keys;
      expect(keys.forUrl('ollamaApiKey', 'https://ollama.com/api/web_search')).toBe(OLLAMA_API_KEY);
      expect(keys.forUrl('ollamaApiKey', 'http://gpu-box:11434')).toBeUndefined();
      expect(keys.forUrl('ollamaApiKey', 'https://ollama.com.evil.example')).toBeUndefined();
      expect(keys.forUrl('ollamaApiKey', 'http://ollama.com')).toBeUndefined();
      expect(keys.forUrl('hfToken', 'https://ollama.com')).toBeUndefined();
    })();
  });

  it('the web mode cannot approve a host from the page', async () => {
    app = await startTestApp({ env: { HF_TOKEN } });
    await app.client.call('settings.update', { hubEndpoint: spy.url });
    const e = (await settle(app.client.call('keys.approve', { setting: 'hubEndpoint' }))) as AppError;
    expect(e.code).toBe('forbidden');
    expect(e.message).toMatch(/HF_ENDPOINT/);
    expect((await app.client.call('settings.get', {})).canApproveHosts).toBe(false);
  });
});

describe('a host the user approves outside the page receives its key', () => {
  let spy: Spy;
  let other: Spy;
  let app: TestApp | undefined;
  let asked: ApprovalRequest[];
  let answer: boolean;
  beforeEach(async () => {
    spy = await new Spy().start();
    other = await new Spy().start();
    asked = [];
    answer = true;
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await spy.stop();
    await other.stop();
  });

  const start = () =>
    startTestApp({
      env: { HF_TOKEN, FAL_KEY },
      approveHost: async (req) => {
        asked.push(req);
        return answer;
      },
    });

  it('declined → still withheld; approved → the key arrives at that exact origin only', async () => {
    app = await start();
    await app.client.call('settings.update', { hubAccess: 'online', hubEndpoint: spy.url });
    answer = false;
    let view = await app.client.call('keys.approve', { setting: 'hubEndpoint' });
    expect(asked).toEqual([{ key: 'hfToken', label: 'Hugging Face token', envVar: 'HF_TOKEN', origin: spy.url }]);
    expect(view.bindings.find((b) => b.setting === 'hubEndpoint')).toMatchObject({ bound: false });
    await app.client.call('hub.search', { search: 'a' });
    expect(spy.seen()).not.toContain(HF_TOKEN);

    answer = true;
    view = await app.client.call('keys.approve', { setting: 'hubEndpoint' });
    expect(view.bindings.find((b) => b.setting === 'hubEndpoint')).toMatchObject({ bound: true, source: 'approved' });
    await app.client.call('hub.search', { search: 'b' });
    expect(spy.requestsTo('/api/models').at(-1)!.headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
    // The fal key was not part of the approval.
    expect(app.services.keys.forUrl('falKey', spy.url)).toBeUndefined();
  });

  it('changing the endpoint from the page drops the binding; coming back asks again', async () => {
    app = await start();
    await app.client.call('settings.update', { hubAccess: 'online', hubEndpoint: spy.url });
    await app.client.call('keys.approve', { setting: 'hubEndpoint' });
    await app.client.call('settings.update', { hubEndpoint: other.url });
    await app.client.call('hub.search', { search: 'c' });
    expect(other.seen()).not.toContain(HF_TOKEN);
    const view = await app.client.call('settings.update', { hubEndpoint: spy.url });
    expect(view.bindings.find((b) => b.setting === 'hubEndpoint')).toMatchObject({ bound: false });
    expect(app.services.keys.forUrl('hfToken', spy.url)).toBeUndefined();
  });

  it('approvals persist across restarts (desktop), and a restart does not bind anything new', async () => {
    app = await start();
    const dataDir = app.dataDir;
    await app.client.call('settings.update', { falRestBase: spy.url });
    await app.client.call('keys.approve', { setting: 'falRestBase' });
    await app.server.close();
    app = await startTestApp({ dataDir, env: { FAL_KEY }, approveHost: async () => true });
    expect(app.services.keys.forUrl('falKey', spy.url)).toBe(FAL_KEY);
    expect(app.services.keys.forUrl('falKey', other.url)).toBeUndefined();
  });
});

describe('endpoints set outside the page stay bound', () => {
  let spy: Spy;
  let app: TestApp | undefined;
  beforeEach(async () => {
    spy = await new Spy().start();
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await spy.stop();
  });

  it('HF_ENDPOINT from the environment receives the token, also after the page changed and reset it', async () => {
    app = await startTestApp({ env: { HF_TOKEN, HF_ENDPOINT: spy.url } });
    await app.client.call('settings.update', { hubAccess: 'online' });
    await app.client.call('hub.search', { search: 'a' });
    expect(spy.requestsTo('/api/models').at(-1)!.headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
    await app.client.call('settings.update', { hubEndpoint: 'https://huggingface.co.evil.example' });
    const view = await app.client.call('settings.update', { hubEndpoint: null });
    expect(view.bindings.find((b) => b.setting === 'hubEndpoint')).toMatchObject({ bound: true, source: 'env' });
    await app.client.call('hub.search', { search: 'b' });
    expect(spy.requestsTo('/api/models').at(-1)!.headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
  });

  it('refused and unparsable addresses from the page are invalid_input and change nothing', async () => {
    app = await startTestApp({ env: { HF_TOKEN } });
    for (const bad of [
      'http://169.254.169.254',
      'http://[::ffff:169.254.169.254]',
      'http://0.0.0.0:11434',
      'http://metadata.google.internal',
      'http://[fe80::1]',
      'https://user:pw@huggingface.co',
    ]) {
      for (const setting of ['hubEndpoint', 'routerUrl', 'falRestBase', 'ollamaHost'] as const) {
        const e = (await settle(app.client.call('settings.update', { [setting]: bad }))) as AppError;
        expect(e, `${setting}=${bad}`).toBeInstanceOf(AppError);
        expect(e.code).toBe('invalid_input');
      }
    }
    const view = await app.client.call('settings.get', {});
    expect(view.sources).toMatchObject({ hubEndpoint: 'default', routerUrl: 'default', ollamaHost: 'default' });
    // The IPv4-mapped loopback is loopback: accepted, and Ollama on it gets no API key.
    const ok = await app.client.call('settings.update', { ollamaHost: 'http://[::ffff:127.0.0.1]:11434' });
    expect(ok.values.ollamaHost).toBe('http://[::ffff:7f00:1]:11434');
  });
});

/** A host that sends every request on to `to()` (302 for GET, 307 otherwise: the method and body stay). */
class Redirector extends FixtureServer {
  to = () => '';
  constructor() {
    super(({ req, res, url }) => {
      if (url.pathname.startsWith('/moved/')) return json(res, 200, []);
      res.writeHead(req.method === 'GET' ? 302 : 307, { location: this.to() + url.pathname + url.search });
      res.end();
    });
  }
}

describe('a bound host that redirects', () => {
  let spy: Spy;
  let bound: Redirector;
  let ollama: OllamaFixture;
  let app: TestApp | undefined;
  beforeEach(async () => {
    [spy, bound, ollama] = await Promise.all([
      new Spy().start(),
      new Redirector().start(),
      startOllamaFixture({ models: [fixtureModel('qwen3:8b', { family: 'qwen3' })] }),
    ]);
    ollama.setShow('qwen3:8b', { capabilities: ['completion', 'tools'] });
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await Promise.all([spy.stop(), bound.stop(), ollama.stop()]);
  });

  const start = () =>
    startTestApp({
      env: {
        HF_TOKEN,
        FAL_KEY,
        OLLAMA_API_KEY,
        HF_ENDPOINT: bound.url,
        HUBDESK_ROUTER_URL: bound.url,
        HUBDESK_FAL_REST_BASE: bound.url,
        OLLAMA_HOST: ollama.url,
      },
      chat: { webBase: bound.url, maxToolRounds: 1 },
    });

  it('to another origin: the key reaches the bound host and never the one it redirects to', async () => {
    bound.to = () => spy.url;
    app = await start();
    await app.client.call('settings.update', { hubAccess: 'online' });
    await useEveryKey(app);
    ollama.chatScript = () => ({ content: [], tool_calls: [{ name: 'web_search', arguments: { query: 'weather' } }] });
    const conv = await app.client.call('chat.create', { model: 'qwen3:8b', ...webToolsAllowed });
    await settle(app.client.stream('chat.send', { id: conv.id, content: 'weather?' }, () => {}).result);

    const sent = bound.requests.map((r) => r.headers.authorization);
    for (const auth of [`Bearer ${HF_TOKEN}`, `Key ${FAL_KEY}`, `Bearer ${OLLAMA_API_KEY}`])
      expect(sent).toContain(auth);
    for (const path of [
      '/api/models',
      '/a/b/resolve/main/x.gguf',
      '/v1/chat/completions',
      '/tokens/',
      '/api/web_search',
    ])
      expect(spy.requests.map((r) => r.path)).toContain(path);
    for (const key of ALL) expect(spy.seen()).not.toContain(key);
  });

  it('to another origin the key is bound to as well: the key is not sent there by the redirect', async () => {
    bound.to = () => spy.url;
    app = await startTestApp({ env: { HF_TOKEN, HF_ENDPOINT: bound.url, HUBDESK_ROUTER_URL: spy.url } });
    await app.client.call('settings.update', { hubAccess: 'online' });
    expect(app.services.keys.forUrl('hfToken', spy.url)).toBe(HF_TOKEN);
    await settle(app.client.call('hub.search', { search: 'a' }));
    await settle(app.client.call('hub.ggufHeader', { id: 'a/b', file: 'x.gguf' }));
    expect(spy.requests.map((r) => r.path)).toEqual(['/api/models', '/a/b/resolve/main/x.gguf']);
    expect(spy.seen()).not.toContain(HF_TOKEN);
  });

  it('to the same origin: the key goes along', async () => {
    bound.to = () => `${bound.url}/moved`;
    app = await start();
    await app.client.call('settings.update', { hubAccess: 'online' });
    await app.client.call('hub.search', { search: 'a' });
    expect(bound.requestsTo('/moved/api/models').at(-1)!.headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
  });
});

describe('"Insert my token" writes the token only into code for hosts it is bound to', () => {
  const chat: ModelRecord = {
    id: 'meta-llama/Llama-3.1-8B-Instruct',
    pipeline_tag: 'text-generation',
    tags: ['conversational'],
    library_name: 'transformers',
  };
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('an address from the page gets code that reads the token from the environment, and says why', async () => {
    app = await startTestApp({ env: { HF_TOKEN } });
    for (const options of [
      { endpointUrl: 'http://evil.example.net/v1' },
      { provider: 'together', directRequest: true },
    ]) {
      const r = await app.client.call('snippets.withToken', { model: chat, options });
      const snippets = r.sections[0].snippets;
      expect(snippets.length, JSON.stringify(options)).toBeGreaterThan(0);
      expect(JSON.stringify(r)).not.toContain(HF_TOKEN);
      for (const s of snippets) {
        expect(s.content).toMatch(/os\.environ|process\.env\.|\$[A-Z_]+/);
        expect(s.note).toMatch(/environment/);
      }
    }
    const evil = await app.client.call('snippets.withToken', {
      model: chat,
      options: { endpointUrl: 'http://evil.example.net/v1' },
    });
    expect(evil.sections[0].snippets[0].note).toContain('evil.example.net');
    expect(evil.tokenWithheld).toContain('evil.example.net');
  });

  it('the router it is bound to gets the token written in', async () => {
    app = await startTestApp({ env: { HF_TOKEN } });
    for (const options of [{}, { endpointUrl: 'https://router.huggingface.co/v1' }]) {
      const r = await app.client.call('snippets.withToken', { model: chat, options });
      expect(r.sections[0].snippets.length).toBeGreaterThan(0);
      for (const s of r.sections[0].snippets) expect(s.content, s.client).toContain(HF_TOKEN);
      expect(r.tokenWithheld).toBeUndefined();
    }
  });
});
