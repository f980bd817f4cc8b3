import { describe, expect, it } from 'vitest';
import { sseData, StreamLimit, STREAM_LIMITS } from '../../electron/main/services/engines/sse-data';

/** Issue #38 F12: the SSE reader splits events in linear time, across any chunk boundary, within its limits. */
async function* chunks(parts: (string | Uint8Array)[], gapMs = 0): AsyncGenerator<Uint8Array> {
  for (const p of parts) {
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    yield typeof p === 'string' ? new TextEncoder().encode(p) : p;
  }
}

async function read(parts: (string | Uint8Array)[], limits = STREAM_LIMITS, gapMs = 0): Promise<string[]> {
  const out: string[] = [];
  for await (const d of sseData(chunks(parts, gapMs), new AbortController().signal, limits)) out.push(d);
  return out;
}

describe('sseData', () => {
  it('reads events split anywhere: mid-line, between \\r and \\n, inside a UTF-8 character', async () => {
    const euro = new TextEncoder().encode('€');
    expect(
      await read([
        'data: {"a"',
        ':1}\r',
        '\n\r\ndata: x\ndata: ',
        euro.slice(0, 2),
        euro.slice(2),
        '\n\n: comment\nevent: e\ndata:last',
      ]),
    ).toEqual(['{"a":1}', 'x\n€', 'last']);
  });

  it('reads 200,000 events sent in one chunk in linear time', async () => {
    const body = 'data: {"choices":[]}\n\n'.repeat(200_000);
    const started = performance.now();
    expect((await read([body])).length).toBe(200_000);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses an event past its cap before holding it whole (50 MB sent, 1 M characters read)', async () => {
    const piece = 'x'.repeat(64 * 1024);
    let sent = 0;
    async function* huge(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('data: "');
      for (; sent < 50 * 1024 * 1024; sent += piece.length) yield new TextEncoder().encode(piece);
    }
    const it = sseData(huge(), new AbortController().signal, STREAM_LIMITS);
    await expect(it.next()).rejects.toEqual(new StreamLimit('event', 1024 * 1024));
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });

  it('ends with an idle StreamLimit when nothing comes for idleMs', async () => {
    const limits = { ...STREAM_LIMITS, idleMs: 50 };
    await expect(read(['data: 1\n\n', 'data: 2\n\n'], limits, 200)).rejects.toMatchObject({
      kind: 'idle',
      message: 'stopped sending for 0.05 s',
    });
  });
});
