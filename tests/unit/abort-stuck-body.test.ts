import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAIStream } from '../../electron/main/services/engines/openai-stream';
import { fetchPart } from '../../electron/main/services/local/download/part-fetch';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * A body that sends `first` bytes, then neither sends more nor settles a cancel: what Node's fetch leaves when a
 * request is aborted mid-body (nodejs/node#56917).
 */
function stuckBody(first: Uint8Array, headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(first),
    pull: () => new Promise(() => {}),
    cancel: () => new Promise(() => {}),
  });
  return new Response(body, { status: 200, headers });
}

describe('fetchPart on an abort', () => {
  it('ends at once with the abort, the bytes that came on disk, even when the body never settles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'part-'));
    dirs.push(dir);
    const path = join(dir, 'model.gguf.part');
    const ctrl = new AbortController();
    const done = fetchPart({
      url: 'http://127.0.0.1:9/x',
      path,
      size: 10_000,
      fetch: (async () => stuckBody(new Uint8Array(1_000).fill(7), { 'content-length': '10000' })) as typeof fetch,
      signal: ctrl.signal,
      refuse: () => new Error('refused') as never,
      onProgress: (have) => {
        if (have === 1_000) setTimeout(() => ctrl.abort(new Error('paused')), 20);
      },
    });
    await expect(done).rejects.toThrow('paused');
    expect(readFileSync(path)).toHaveLength(1_000);
  });
});

describe('a chat stream from an OpenAI-compatible server on Stop', () => {
  it('ends at once with the abort after the text so far, even when the body never settles', async () => {
    const first = 'data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}\n\n';
    const ctrl = new AbortController();
    const got: string[] = [];
    const run = (async () => {
      for await (const d of openAIStream({
        baseUrl: 'http://127.0.0.1:9/v1',
        fetch: (async () =>
          stuckBody(new TextEncoder().encode(first), { 'content-type': 'text/event-stream' })) as typeof fetch,
        body: { model: 'm', messages: [] },
        signal: ctrl.signal,
        timeoutMs: 1_000,
      })) {
        got.push(d.content ?? '');
        setTimeout(() => ctrl.abort(new Error('stopped')), 20);
      }
    })();
    await expect(run).rejects.toThrow('stopped');
    expect(got).toEqual(['Hello']);
  });
});
