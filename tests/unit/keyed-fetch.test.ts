import { describe, expect, it } from 'vitest';
import { keyedFetch } from '../../electron/main/services/net/bound-fetch';

const KEY = 'sk-keyedFetchSecret-0000dddd';
const ORIGIN = 'http://127.0.0.1:8080';

/** A fake network answering `parts` as the body's reads; every Authorization sent is recorded. */
function network(parts: string[]) {
  const sent: (string | null)[] = [];
  const base = (async (_input: URL, init: RequestInit) => {
    sent.push(new Headers(init.headers).get('authorization'));
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(enc.encode(p));
        c.close();
      },
    });
    return new Response(body, { status: 401, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const fetch = keyedFetch((origin) => (origin === ORIGIN ? KEY : undefined), 'Bearer', { secrets: () => [KEY], base });
  return { sent, fetch };
}

describe('keyedFetch', () => {
  it('sends the key, with its scheme, to the origin the resolver names only', async () => {
    const net = network(['{}']);
    await net.fetch(`${ORIGIN}/v1/models`);
    await net.fetch('http://127.0.0.1:9999/v1/models', { headers: { authorization: 'Bearer smuggled' } });
    expect(net.sent).toEqual([`Bearer ${KEY}`, null]);
  });

  it('masks the start of a key a server quotes back, even when the quote is split across reads', async () => {
    for (const parts of [
      [`{"error":"Malformed token provided: ${KEY.slice(0, 10)}... Ensure"}`],
      [`{"error":"bad ${KEY.slice(0, 13)}`, `${KEY.slice(13)} here"}`],
      [`{"error":"bad ${KEY.slice(0, 5)}`, `${KEY.slice(5, 12)}`, `... here"}`],
    ]) {
      const text = await (await network(parts).fetch(`${ORIGIN}/v1/models`)).text();
      expect(text, parts.join('|')).toContain('***');
      expect(text, parts.join('|')).not.toContain(KEY.slice(0, 8));
      expect(text, parts.join('|')).not.toContain(KEY.slice(-8));
    }
  });
});
