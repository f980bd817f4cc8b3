import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../electron/main/handlers';
import { Router } from '../../electron/main/router';
import { createServices } from '../../electron/main/services';
import { startWebServer, type WebServer } from '../../electron/main/web/server';
import { tempDir } from '../helpers/app';

/** A raw HTTP request, so the test controls Host and Origin exactly as an attacker's page would. */
function raw(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: opts.headers,
        setHost: !opts.headers?.host,
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    req.end(opts.body);
  });
}

describe('web mode security', () => {
  let server: WebServer;
  let dir: ReturnType<typeof tempDir>;
  const auth = () => ({ authorization: `Bearer ${server.secret}`, 'content-type': 'application/json' });

  beforeAll(async () => {
    dir = tempDir();
    const staticDir = join(dir.path, 'static');
    mkdirSync(join(staticDir, 'assets'), { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>HubDesk</title>');
    writeFileSync(join(dir.path, 'secret.txt'), 'outside the static root');
    const services = createServices({ dataDir: join(dir.path, 'data'), mode: 'web', version: 't', env: {} });
    server = await startWebServer({
      router: new Router(createHandlers(services), services.log),
      log: services.log,
      staticDir,
    });
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('listens on loopback only and prints a URL carrying the secret in the fragment', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${server.secret}`);
    expect(server.secret.length).toBeGreaterThanOrEqual(32);
  });

  it('answers a call with the right secret', async () => {
    const res = await raw(server.port, { method: 'POST', path: '/api/call/app.info', headers: auth(), body: '{}' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, value: { name: 'HubDesk', mode: 'web' } });
  });

  it('401 without the secret, or with a wrong one', async () => {
    const none = await raw(server.port, { method: 'POST', path: '/api/call/app.info', body: '{}' });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const wrong = await raw(server.port, {
      method: 'POST',
      path: '/api/call/app.info',
      // The last character changed, to one it is not (a secret may end in any character).
      headers: { authorization: `Bearer ${server.secret.slice(0, -1)}${server.secret.endsWith('x') ? 'y' : 'x'}` },
      body: '{}',
    });
    expect(wrong.status).toBe(401);
    // A wrong secret is one from an earlier launch: the page is told that, not "Ollama not reachable".
    expect(JSON.parse(wrong.body)).toMatchObject({
      ok: false,
      error: { code: 'stale_secret', message: expect.stringMatching(/^This page's secret is stale/) },
    });
    const stream = await raw(server.port, { method: 'POST', path: '/api/stream/ollama.pull', body: '{"model":"x"}' });
    expect(stream.status).toBe(401);
  });

  it('403 for a foreign Host (DNS rebinding), even with the secret', async () => {
    const res = await raw(server.port, {
      method: 'POST',
      path: '/api/call/app.info',
      headers: { ...auth(), host: `evil.example:${server.port}` },
      body: '{}',
    });
    expect(res.status).toBe(403);
    const page = await raw(server.port, { path: '/', headers: { host: 'rebind.attacker.test' } });
    expect(page.status).toBe(403);
  });

  it('403 for a foreign Origin, even with the secret', async () => {
    const res = await raw(server.port, {
      method: 'POST',
      path: '/api/call/app.info',
      headers: { ...auth(), origin: 'https://evil.example' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    const ok = await raw(server.port, {
      method: 'POST',
      path: '/api/call/app.info',
      headers: { ...auth(), origin: `http://localhost:${server.port}`, host: `localhost:${server.port}` },
      body: '{}',
    });
    expect(ok.status).toBe(200);
  });

  it('serves the renderer with a strict CSP and never a file outside its folder', async () => {
    const page = await raw(server.port, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const res = await raw(server.port, { path });
      expect(res.body).not.toContain('outside the static root');
    }
  });

  it('bad JSON is invalid_input, not a crash', async () => {
    const res = await raw(server.port, {
      method: 'POST',
      path: '/api/call/settings.update',
      headers: auth(),
      body: '{nope',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
