import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Download } from '@shared/contract/local-downloads';
import { Downloads } from '../../electron/main/services/local/download/downloads';
import { createLogger } from '../../electron/main/services/log';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { tempDir } from '../helpers/app';

// Interrupted downloads: a connection cut mid-file, pause and resume, cancel, and an app restart mid-download.
const REPO = 'acme/tiny-GGUF';
const FILE = 'tiny-Q8_0.gguf';
const bytes = tinyGguf({ seed: 7 });
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let hub: HubFixture;
let dir: ReturnType<typeof tempDir>;
const made: Downloads[] = [];
const final = () => join(dir.path, 'models', REPO, FILE);
const onDisk = (p: string) => statSync(p, { throwIfNoEntry: false })?.size;
const ranges = () => hub.cdn.gets().map((r) => r.headers.range);

beforeEach(async () => {
  hub = await startHubFixture({ models: [{ id: REPO, files: { [FILE]: bytes } }] });
  dir = tempDir('hubdesk-dl-');
});

afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => d.dispose()));
  await hub.stop();
  dir.remove();
});

function downloads(): Downloads {
  const opts = { dir: join(dir.path, 'models'), endpoint: () => hub.url, fetch, log: createLogger() };
  const d = new Downloads({ ...opts, retries: 2, retryDelayMs: 5 });
  made.push(d);
  return d;
}

function until(dl: Downloads, id: string, pred: (d: Download) => boolean): Promise<Download> {
  return new Promise((ok) => {
    const check = () => {
      const d = dl.list().find((x) => x.id === id);
      if (d && pred(d)) {
        off();
        ok(d);
      }
    };
    const off = dl.onChange(check);
    check();
  });
}
const settled = (d: Download) => ['done', 'failed', 'cancelled', 'paused'].includes(d.state);
/** Waits until the stalled download holds `n` bytes, counted and on disk. */
async function stalledAt(dl: Downloads, id: string, n: number): Promise<void> {
  await until(dl, id, (d) => d.receivedBytes >= n);
  while (onDisk(`${final()}.part`) !== n) await new Promise((ok) => setTimeout(ok, 10));
}

describe('interrupted downloads', () => {
  it('a connection cut mid-file is retried with Range, and the file still verifies', async () => {
    hub.cdn.cut = { afterBytes: 100_000, times: 2 };
    const dl = downloads();
    const d = await until(dl, (await dl.start({ repo: REPO, file: FILE })).id, settled);
    expect(d.state).toBe('done');
    // Each try asks for the rest from what is on disk (what the cut lost in flight is asked again).
    const from = ranges().map((r) => Number(/^bytes=(\d+)-$/.exec(r ?? '')?.[1] ?? 0));
    expect(from).toHaveLength(3);
    expect(from[0] === 0 && from[1] > 0 && from[1] <= 100_000 && from[2] > from[1]).toBe(true);
    expect(sha(readFileSync(final()))).toBe(sha(bytes));
  });

  it('cut again and again without progress: fails saying where it stopped, and resume finishes it', async () => {
    // 150 kB, then answers cut before their first byte: two tries without progress (retries: 2), then it fails.
    hub.cdn.cuts = [150_000, 0, 0];
    const dl = downloads();
    const { id } = await dl.start({ repo: REPO, file: FILE });
    const d = await until(dl, id, settled);
    expect(d.state).toBe('failed');
    const kept = onDisk(`${final()}.part`)!;
    expect(kept > 0 && kept <= 150_000).toBe(true);
    expect(d.error?.message).toMatch(/^The download stopped at [\d.]+ KB of \d+ KB: .+\.$/);
    expect(ranges()).toEqual([undefined, `bytes=${kept}-`, `bytes=${kept}-`]);
    expect(existsSync(final())).toBe(false);

    await dl.resume(id);
    expect(await until(dl, id, settled)).toMatchObject({ state: 'done', receivedBytes: bytes.length });
    expect(ranges().at(-1)).toBe(`bytes=${kept}-`);
    expect(sha(readFileSync(final()))).toBe(sha(bytes));
  });

  it('pause keeps the bytes on disk; resume continues from them with Range', async () => {
    hub.cdn.stallAfter = 200_000;
    const dl = downloads();
    const { id } = await dl.start({ repo: REPO, file: FILE });
    await stalledAt(dl, id, 200_000);
    const paused = await dl.pause(id);
    expect(paused).toMatchObject({ state: 'paused', receivedBytes: 200_000, bytesPerSecond: 0 });
    expect([onDisk(`${final()}.part`), existsSync(final())]).toEqual([200_000, false]);

    hub.cdn.stallAfter = undefined;
    await dl.resume(id);
    expect(await until(dl, id, settled)).toMatchObject({ state: 'done' });
    expect(ranges()).toEqual([undefined, 'bytes=200000-']);
    expect(sha(readFileSync(final()))).toBe(sha(bytes));
  });

  it('cancel stops it and deletes the partial file; dismiss takes it off the list', async () => {
    hub.cdn.stallAfter = 100_000;
    const dl = downloads();
    const { id } = await dl.start({ repo: REPO, file: FILE });
    await stalledAt(dl, id, 100_000);
    expect(() => dl.dismiss(id)).toThrow(/Cancel the download first/);
    expect(await dl.cancel(id)).toMatchObject({ state: 'cancelled', receivedBytes: 0 });
    expect([existsSync(`${final()}.part`), existsSync(final())]).toEqual([false, false]);
    expect(dl.dismiss(id)).toEqual([]);
  });

  it('after a restart the interrupted download is listed as paused and resumes from its bytes', async () => {
    hub.cdn.stallAfter = 120_000;
    const first = downloads();
    const { id } = await first.start({ repo: REPO, file: FILE });
    await stalledAt(first, id, 120_000);

    // The app stopped without a goodbye: a new Downloads reads the same folder.
    const second = downloads();
    expect(second.list()).toMatchObject([{ id, state: 'paused', receivedBytes: 120_000, totalBytes: bytes.length }]);
    await first.dispose();

    hub.cdn.stallAfter = undefined;
    await second.resume(id);
    expect(await until(second, id, settled)).toMatchObject({ state: 'done', modelId: `${REPO}/${FILE}` });
    expect(ranges().at(-1)).toBe('bytes=120000-');
    expect(sha(readFileSync(final()))).toBe(sha(bytes));
  });

  it('a damaged list file is set aside: the list starts empty', () => {
    mkdirSync(join(dir.path, 'models'), { recursive: true });
    writeFileSync(join(dir.path, 'models', '.hubdesk-queue.json'), '{"version":1,"downloads":[{"d":{"id":1}}]}');
    expect(downloads().list()).toEqual([]);
  });
});
