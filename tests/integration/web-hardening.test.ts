import { Agent, request } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_PART_CHARS, MAX_BODY_BYTES, MAX_IMPORT_CHARS } from '@shared/limits';
import { contract } from '@shared/contract';
import { startTestApp, type TestApp } from '../helpers/app';

interface Answer {
  status: number;
  body: string;
  socket: unknown;
}

/** One request on a keep-alive agent, so a test can see whether the next one reuses the connection. */
function send(
  agent: Agent,
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port, agent, method: opts.method ?? 'POST', path: opts.path, headers: opts.headers },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => ok({ status: res.statusCode ?? 0, body, socket: req.socket }));
      },
    );
    req.on('error', fail);
    req.end(opts.body);
  });
}

describe('web server hardening', () => {
  let app: TestApp;
  let agent: Agent;
  const headers = () => ({ authorization: `Bearer ${app.server.secret}`, 'content-type': 'application/json' });

  beforeAll(async () => {
    app = await startTestApp();
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterAll(async () => {
    agent.destroy();
    await app.close();
  });

  const logText = () => {
    try {
      return readFileSync(join(app.dataDir, 'logs', 'hubdesk.log'), 'utf8');
    } catch {
      return '';
    }
  };

  it.each(['/api/call/%E0%A4%A', '/api/stream/%', '/%ZZ', '/assets/%c0%af'])(
    'a malformed percent-escape (%s) is a 400, and the URL is not logged',
    async (path) => {
      const r = await send(agent, app.server.port, {
        path,
        headers: headers(),
        body: path.startsWith('/api') ? '{}' : undefined,
        method: path.startsWith('/api') ? 'POST' : 'GET',
      });
      expect(r.status).toBe(400);
      expect(logText()).not.toContain(path);
    },
  );

  it('a body over the limit is a typed 413 and the same connection serves the next call', async () => {
    const big = Buffer.alloc(MAX_BODY_BYTES + 1024, 0x20);
    const first = await send(agent, app.server.port, { path: '/api/call/settings.get', headers: headers(), body: big });
    expect(first.status).toBe(413);
    expect(JSON.parse(first.body)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/too large/) },
    });
    const next = await send(agent, app.server.port, { path: '/api/call/settings.get', headers: headers(), body: '{}' });
    expect(next.status).toBe(200);
    expect(next.socket).toBe(first.socket);
  });

  it('a chunked body over the limit (no content-length) is a 413 too', async () => {
    const r = await new Promise<number>((ok, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: app.server.port,
          method: 'POST',
          path: '/api/call/settings.get',
          headers: { ...headers(), 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          res.on('end', () => ok(res.statusCode ?? 0));
        },
      );
      req.on('error', fail);
      const chunk = Buffer.alloc(4 * 1024 * 1024, 0x20);
      for (let sent = 0; sent <= MAX_BODY_BYTES; sent += chunk.length) req.write(chunk);
      req.end();
    });
    expect(r).toBe(413);
  });

  it('5,000-deep JSON is a typed invalid_input on every route', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    for (const path of ['/api/call/settings.update', '/api/stream/chat.send']) {
      const r = await send(agent, app.server.port, { path, headers: headers(), body: `{"a":${deep}}` });
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({
        ok: false,
        error: { code: 'invalid_input', message: expect.stringMatching(/deeper/) },
      });
    }
  });

  it('the contract accepts no input the transport must refuse: chat.import fits in one body', () => {
    const schema = contract['chat.import'].input;
    expect(schema.safeParse({ text: 'x'.repeat(MAX_IMPORT_CHARS + 1) }).success).toBe(false);
    expect(JSON.stringify({ text: 'x'.repeat(MAX_IMPORT_CHARS) }).length).toBeLessThan(MAX_BODY_BYTES);
    // A part of a longer file fits whatever it holds: a control character is 6 bytes once escaped.
    const part = contract['chat.importPart'].input;
    expect(part.safeParse({ text: 'x'.repeat(IMPORT_PART_CHARS + 1) }).success).toBe(false);
    expect(
      JSON.stringify({ upload: 'u_0123456789abcdef01', text: '\u0001'.repeat(IMPORT_PART_CHARS) }).length,
    ).toBeLessThan(MAX_BODY_BYTES);
  });

  it('the log file is readable by this user only', async () => {
    app.services.log.info('probe');
    expect(statSync(join(app.dataDir, 'logs', 'hubdesk.log')).mode & 0o777).toBe(0o600);
  });
});
