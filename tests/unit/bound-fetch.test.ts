import { describe, expect, it } from 'vitest';
import { boundFetch } from '../../electron/main/services/net/bound-fetch';

const KEY = 'hf_boundFetchKey0000eeee';
const BOUND = 'https://hub.example';
const keys = { forUrl: (_name: string, url: string) => (url === BOUND ? KEY : undefined) };

interface Sent {
  url: string;
  method: string;
  auth: string | null;
  body: unknown;
}

/** A fake network: `answer` decides each response; every request is recorded as sent. */
function network(answer: (url: URL, n: number) => Response) {
  const sent: Sent[] = [];
  const base = (async (input: URL, init: RequestInit) => {
    const headers = new Headers(init.headers);
    sent.push({
      url: String(input),
      method: init.method ?? 'GET',
      auth: headers.get('authorization'),
      body: init.body,
    });
    expect(init.redirect).toBe('manual');
    return answer(new URL(String(input)), sent.length);
  }) as typeof fetch;
  return { sent, fetch: boundFetch('hfToken', keys, { secrets: () => [KEY], base }) };
}

const redirect = (status: number, location: string) => new Response(null, { status, headers: { location } });

describe('boundFetch', () => {
  it('sends the key only to its bound origin, dropping any Authorization the caller set', async () => {
    const net = network(() => new Response('ok'));
    await net.fetch(`${BOUND}/api/models?search=a`, { headers: { Authorization: 'Bearer other' } });
    await net.fetch('https://elsewhere.example/x', { headers: { Authorization: 'Bearer other' } });
    expect(net.sent.map((s) => s.auth)).toEqual([`Bearer ${KEY}`, null]);
  });

  it('keeps method and body on 307, turns a POST into a bodiless GET on 302 and 303', async () => {
    for (const [status, method, body] of [
      [307, 'POST', '{"a":1}'],
      [302, 'GET', undefined],
      [303, 'GET', undefined],
    ] as const) {
      const net = network((_u, n) => (n === 1 ? redirect(status, '/next') : new Response('ok')));
      await net.fetch(`${BOUND}/start`, { method: 'POST', body: '{"a":1}' });
      expect(net.sent[1]).toEqual({ url: `${BOUND}/next`, method, auth: `Bearer ${KEY}`, body });
    }
  });

  it('once a redirect left the origin, no hop gets the key, not even back on the bound origin', async () => {
    const net = network((u) =>
      u.hostname === 'hub.example' && u.pathname === '/start'
        ? redirect(302, 'https://cdn.example/file')
        : u.hostname === 'cdn.example'
          ? redirect(302, `${BOUND}/back`)
          : new Response('ok'),
    );
    await net.fetch(`${BOUND}/start`);
    expect(net.sent.map((s) => [s.url, s.auth])).toEqual([
      [`${BOUND}/start`, `Bearer ${KEY}`],
      ['https://cdn.example/file', null],
      [`${BOUND}/back`, null],
    ]);
  });

  it('fails on a redirect loop instead of following it for ever', async () => {
    const net = network(() => redirect(302, '/again'));
    await expect(net.fetch(`${BOUND}/again`)).rejects.toThrow(/redirects/);
    expect(net.sent.length).toBe(11);
  });

  it('masks a secret split across reads of a text body; a binary body passes byte for byte', async () => {
    const parts = ['{"error":"bad hf_bound', 'FetchKey0000eeee here"}'];
    // Not UTF-8: decoding it as text would change it.
    const binary = [0x47, 0x47, 0x55, 0x46, 0xff, 0xfe, 0x00, 0xc3];
    const net = network((u) =>
      u.pathname === '/text'
        ? new Response(
            new ReadableStream({
              start(c) {
                for (const p of parts) c.enqueue(new TextEncoder().encode(p));
                c.close();
              },
            }),
            { status: 401, headers: { 'content-type': 'application/json', 'content-length': '45' } },
          )
        : new Response(new Uint8Array(binary), { headers: { 'content-type': 'application/octet-stream' } }),
    );
    const text = await net.fetch(`${BOUND}/text`);
    expect(text.headers.get('content-length')).toBeNull();
    expect(await text.text()).toBe('{"error":"bad *** here"}');
    const bin = new Uint8Array(await (await net.fetch(`${BOUND}/bin`)).arrayBuffer());
    expect([...bin]).toEqual(binary);
  });
});
