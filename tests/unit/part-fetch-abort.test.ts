import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchPart } from '../../electron/main/services/local/download/part-fetch';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * A body that sends `first` bytes, then neither sends more nor settles a cancel: what Node's fetch leaves when a
 * request is aborted mid-body (nodejs/node#56917).
 */
function stuckBody(first: number): Response {
  const body = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(new Uint8Array(first).fill(7)),
    pull: () => new Promise(() => {}),
    cancel: () => new Promise(() => {}),
  });
  return new Response(body, { status: 200, headers: { 'content-length': '10000' } });
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
      fetch: (async () => stuckBody(1_000)) as typeof fetch,
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
