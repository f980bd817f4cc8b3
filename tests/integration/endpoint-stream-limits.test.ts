import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareEvent } from '@shared/contract/compare';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * Issue #38 F12: an endpoint's stream is bounded per event, per reply and by an idle timeout; each ends the reply
 * with an error in words and keeps the text so far. A raw server sends what no fixture would: an event without end,
 * a stall after the first chunk, a reply without end.
 */
type Mode = 'huge-event' | 'stall' | 'endless';
let mode: Mode = 'stall';
const open = new Set<ServerResponse>();

const chunk = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

async function answer(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chunk('Hello there'));
  open.add(res);
  res.on('close', () => open.delete(res));
  if (mode === 'stall') return; // never another byte
  if (mode === 'huge-event') {
    // One event of 2 MB, in 64 KB writes, never finished by a blank line.
    res.write(`data: {"choices":[{"delta":{"content":"`);
    const piece = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 32 && !res.destroyed; i++) {
      res.write(piece);
      await new Promise((r) => setImmediate(r));
    }
    return;
  }
  for (let i = 0; i < 2000 && !res.destroyed; i++) {
    res.write(chunk('y'.repeat(100)));
    await new Promise((r) => setImmediate(r));
  }
}

describe('endpoint streams with limits (issue #38 F12)', () => {
  let server: Server;
  let app: TestApp;
  let endpoint = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
      }
      req.resume();
      req.on('end', () => void answer(res));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    app = await startTestApp({
      chat: { streamLimits: { maxEventChars: 256 * 1024, maxReplyChars: 50_000, idleMs: 400 } },
    });
    endpoint = (
      await app.client.call('endpoints.save', {
        name: 'box',
        preset: 'llama.cpp',
        baseUrl: `http://127.0.0.1:${port}/v1`,
      })
    ).endpoint.id;
  });
  afterAll(async () => {
    for (const r of open) r.destroy();
    await app?.close();
    await new Promise((r) => server?.close(r));
  });

  async function compare(m: Mode) {
    mode = m;
    const events: CompareEvent[] = [];
    const started = Date.now();
    const h = app.client.stream(
      'compare.run',
      { panes: [0, 1].map(() => ({ backend: 'endpoint' as const, endpoint, model: 'm' })), prompt: 'Hi' },
      (evs) => events.push(...evs),
    );
    const result = await h.result;
    return { result, events, ms: Date.now() - started, answer: result.slots[0].answers[0] };
  }

  it('a stream that stalls after its first chunk ends after the idle timeout, its text kept, and compare.run ends', async () => {
    const { answer, ms } = await compare('stall');
    expect(ms).toBeLessThan(5000);
    expect(answer.content).toBe('Hello there');
    expect(answer.error?.message).toMatch(
      /^box stopped sending for 0.4 s, so the reply was ended; the text so far is kept/,
    );
    expect(answer.error?.code).toBe('timeout');
  });

  it('an event past the cap ends the reply with an upstream error, before the event is held whole', async () => {
    const { answer, events } = await compare('huge-event');
    expect(answer.content).toBe('Hello there');
    expect(answer.error).toMatchObject({ code: 'upstream' });
    expect(answer.error?.message).toMatch(/^box sent one event larger than 256 K characters, so the reply was ended/);
    // The page got the first chunk and the error, nothing of the 2 MB.
    expect(JSON.stringify(events).length).toBeLessThan(20_000);
  });

  it('a reply past the cap ends with an upstream error, keeping what came within it', async () => {
    const { answer } = await compare('endless');
    expect(answer.error?.message).toMatch(/^box sent a reply longer than 49 K characters/);
    expect(answer.content.length).toBeGreaterThan(40_000);
    expect(answer.content.length).toBeLessThanOrEqual(50_000);
  });
});
