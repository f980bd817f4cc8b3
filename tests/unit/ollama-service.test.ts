import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@shared/errors';
import { OllamaService } from '../../electron/main/services/ollama/service';
import { createLogger } from '../../electron/main/services/log';
import { boundFetch } from '../../electron/main/services/net/bound-fetch';

/** Which requests carry the Ollama API key: remote hosts yes, the local server never. */
describe('OllamaService client per host', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the API key to a remote host only, and rebuilds the client when the host changes', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      seen.push({ url: String(url), auth: new Headers(init.headers).get('authorization') });
      return new Response(JSON.stringify({ version: '0.12.3' }), { headers: { 'content-type': 'application/json' } });
    });
    let host = 'https://ollama.example.org';
    const keys = { forUrl: (_name: string, url: string) => (url.startsWith(host) ? 'sk-test-1234' : undefined) };
    const keyedFetch = boundFetch('ollamaApiKey', keys, { secrets: () => ['sk-test-1234'] });
    const svc = new OllamaService({ host: () => host, keyedFetch, log: createLogger() });
    const first = svc.client();
    expect(await svc.version()).toEqual({ version: '0.12.3' });
    expect(svc.client()).toBe(first);
    host = 'http://127.0.0.1:11434';
    await svc.version();
    expect(svc.client()).not.toBe(first);
    expect(seen).toEqual([
      { url: 'https://ollama.example.org/api/version', auth: 'Bearer sk-test-1234' },
      { url: 'http://127.0.0.1:11434/api/version', auth: null },
    ]);
  });

  it('masks the API key in what a remote host answers (an error that echoes it)', async () => {
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      const auth = new Headers(init.headers).get('authorization');
      return new Response(JSON.stringify({ error: `bad key ${auth}` }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    });
    const keys = { forUrl: () => 'sk-test-1234' };
    const keyedFetch = boundFetch('ollamaApiKey', keys, { secrets: () => ['sk-test-1234'] });
    const svc = new OllamaService({ host: () => 'https://ollama.example.org', keyedFetch, log: createLogger() });
    const e = (await svc.version().catch((x: unknown) => x)) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.message).toContain('bad key Bearer ***');
    expect(JSON.stringify(e.toJSON())).not.toContain('sk-test-1234');
  });
});
