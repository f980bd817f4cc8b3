import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Download } from '@shared/contract/local-downloads';
import { AppError } from '@shared/errors';
import { Downloads, type DownloadsOptions } from '../../electron/main/services/local/download/downloads';
import { hasherFor } from '../../electron/main/services/local/download/hasher';
import { formatBytes } from '@shared/format-bytes';
import { SpeedMeter } from '../../electron/main/services/local/download/meter';
import { createLogger } from '../../electron/main/services/log';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { startTestApp, tempDir } from '../helpers/app';

const REPO = 'acme/tiny-GGUF';
const GATED = 'acme/gated-GGUF';
const FILE = 'tiny-Q8_0.gguf';
const SPLIT = ['tiny-F32-00001-of-00002.gguf', 'tiny-F32-00002-of-00002.gguf'];
const TOKEN = 'hf_fixtureToken0001';
const one = tinyGguf({ seed: 1 });
const parts = [tinyGguf({ seed: 2 }), tinyGguf({ seed: 3 })];
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let hub: HubFixture;
let dir: ReturnType<typeof tempDir>;
const made: Downloads[] = [];

beforeEach(async () => {
  const files = { [FILE]: one, [SPLIT[0]]: parts[0], [SPLIT[1]]: parts[1], 'README.md': '# tiny\n' };
  hub = await startHubFixture({
    models: [
      { id: REPO, library_name: 'gguf', files },
      { id: GATED, gated: 'manual', files: { [FILE]: one } },
    ],
  });
  dir = tempDir('hubdesk-dl-');
});

afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => d.dispose()));
  await hub.stop();
  dir.remove();
});

function downloads(opts: Partial<DownloadsOptions> = {}): Downloads {
  const d = new Downloads({
    dir: join(dir.path, 'models'),
    endpoint: () => hub.url,
    fetch,
    log: createLogger(),
    retryDelayMs: 5,
    ...opts,
  });
  made.push(d);
  return d;
}

/** Resolves with the download once `pred` holds for it (the test's timeout is the ceiling). */
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
const models = () => join(dir.path, 'models');
const manifest = () => JSON.parse(readFileSync(join(models(), '.hubdesk-downloads.json'), 'utf8'));

describe('Downloads from the Hub', () => {
  it('follows the redirect to the CDN, verifies the sha256, renames the file and records it', async () => {
    let doneWith: Download | undefined;
    const dl = downloads({ onDone: (d) => (doneWith = d) });
    const started = await dl.start({ repo: REPO, file: FILE });
    expect(started).toMatchObject({ repo: REPO, files: [FILE], totalBytes: one.length, revision: 'main' });
    const d = await until(dl, started.id, settled);
    expect(d).toMatchObject({ state: 'done', receivedBytes: one.length, modelId: `${REPO}/${FILE}` });
    expect(doneWith?.id).toBe(d.id);
    const path = join(models(), REPO, FILE);
    expect(sha(readFileSync(path))).toBe(sha(one));
    expect(existsSync(`${path}.part`)).toBe(false);
    expect(manifest().files[`${REPO}/${FILE}`]).toMatchObject({
      repo: REPO,
      revision: 'main',
      file: FILE,
      parts: [FILE],
      sha256: [sha(one)],
      size: one.length,
    });
    expect(hub.cdn.gets()).toHaveLength(1);

    // Asked again: the verified file is there, nothing is fetched.
    const again = await dl.start({ repo: REPO, file: FILE });
    expect(again).toMatchObject({ id: d.id, state: 'done' });
    expect(hub.cdn.gets()).toHaveLength(1);
  });

  it('the same file asked twice at once is one download', async () => {
    const dl = downloads();
    const [a, b] = await Promise.all([dl.start({ repo: REPO, file: FILE }), dl.start({ repo: REPO, file: FILE })]);
    expect(a.id).toBe(b.id);
    expect(hub.requestsTo(`/api/models/${REPO}/tree/main`)).toHaveLength(1);
    expect(await until(dl, a.id, settled)).toMatchObject({ state: 'done' });
    expect(dl.list()).toHaveLength(1);
  });

  it('fetches every part of a split GGUF, whichever part is chosen', async () => {
    const dl = downloads();
    const started = await dl.start({ repo: REPO, file: SPLIT[1] });
    expect(started.files).toEqual(SPLIT);
    expect(started.totalBytes).toBe(parts[0].length + parts[1].length);
    const d = await until(dl, started.id, settled);
    expect(d).toMatchObject({ state: 'done', modelId: `${REPO}/${SPLIT[0]}` });
    SPLIT.forEach((f, i) => expect(sha(readFileSync(join(models(), REPO, f)))).toBe(sha(parts[i])));
    expect(manifest().files[`${REPO}/${SPLIT[0]}`]).toMatchObject({ parts: SPLIT, sha256: parts.map(sha) });
  });

  it('refuses bytes whose sha256 does not match the Hub and deletes them', async () => {
    hub.cdn.corrupt = true;
    const dl = downloads();
    const started = await dl.start({ repo: REPO, file: FILE });
    const d = await until(dl, started.id, settled);
    expect(d.state).toBe('failed');
    expect(d.error?.message).toMatch(
      /checksum does not match the Hub's \(sha256 [0-9a-f]{12}…\): the copy was deleted\. Download it again/,
    );
    expect(d.error?.message).not.toMatch(/Try again/);
    // Marked, so the row offers "Delete and download again" and shows no "0 B of …".
    expect(d).toMatchObject({ checksumMismatch: true, receivedBytes: 0 });
    const path = join(models(), REPO, FILE);
    expect([existsSync(path), existsSync(`${path}.part`)]).toEqual([false, false]);
    expect(existsSync(join(models(), '.hubdesk-downloads.json'))).toBe(false);

    // Fixed on the Hub's side: "Delete and download again" fetches it again, whole, from the first byte.
    hub.cdn.corrupt = false;
    const again = await dl.restart(d.id);
    expect(again.checksumMismatch).toBeUndefined();
    expect(await until(dl, d.id, settled)).toMatchObject({ state: 'done', receivedBytes: one.length });
    expect(hub.cdn.gets().at(-1)?.headers.range).toBeUndefined();
  });

  it('a split file with one bad part: every part is deleted, and Delete and download again fetches them all', async () => {
    const dl = downloads();
    hub.cdn.corrupt = true;
    const started = await dl.start({ repo: REPO, file: SPLIT[0] });
    const d = await until(dl, started.id, settled);
    expect(d).toMatchObject({ state: 'failed', checksumMismatch: true, receivedBytes: 0 });
    for (const f of SPLIT) expect(existsSync(join(models(), REPO, `${f}.part`))).toBe(false);
    hub.cdn.corrupt = false;
    const before = hub.cdn.gets().length;
    await dl.restart(d.id);
    expect(await until(dl, d.id, settled)).toMatchObject({ state: 'done' });
    expect(hub.cdn.gets().length - before).toBe(2);
  });

  it('a file the Hub lists but will not serve is said that way, not "not in the repo"', async () => {
    const dl = downloads();
    hub.fail(`/${REPO}/resolve/main/${FILE}`, { status: 404 });
    const err = await dl.start({ repo: REPO, file: FILE }).catch((e: AppError) => e);
    expect(err).toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/^The Hub lists tiny-Q8_0\.gguf in acme\/tiny-GGUF but will not serve it \(404\)/),
    });
    expect((err as AppError).message).not.toMatch(/is not in/);
  });

  it('refuses before any byte when the disk has too little space', async () => {
    const dl = downloads({ freeBytes: async () => 100_000_000 });
    const err = await dl.start({ repo: REPO, file: FILE }).catch((e: AppError) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toMatch(/^Not enough disk space: needs .* MB, 100 MB free on /);
    expect(hub.cdn.gets()).toHaveLength(0);
    expect(dl.list()).toEqual([]);
  });

  it('says why when the file is not in the repo, the repo is unknown, or gated without a token', async () => {
    const dl = downloads();
    const fail = (repo: string, file: string) => dl.start({ repo, file }).catch((e: AppError) => e);
    expect(await fail(REPO, 'nope.gguf')).toMatchObject({ code: 'not_found', message: `nope.gguf is not in ${REPO}.` });
    expect(await fail(REPO, 'tiny-F32-00001-of-00003.gguf')).toMatchObject({
      message: `Part 1 of 3 (tiny-F32-00001-of-00003.gguf) is not in ${REPO}.`,
    });
    expect(await fail('acme/none', FILE)).toMatchObject({ code: 'not_found', message: /acme\/none is not on the Hub/ });
    expect(await fail(GATED, FILE)).toMatchObject({ code: 'unauthorized', message: /accept the licence/ });
    expect(dl.list()).toEqual([]);
  });

  it('sends the HF token to the Hub endpoint only, never to the CDN (HF_ENDPOINT and Hub access honoured)', async () => {
    const app = await startTestApp({ env: { HF_TOKEN: TOKEN, HF_ENDPOINT: hub.url } });
    try {
      // Nothing goes to the Hub until the user allows live Hub access.
      const off = await app.client.call('local.download.start', { repo: GATED, file: FILE }).catch((e) => e);
      expect(off).toMatchObject({ code: 'forbidden', message: /Live Hub access is off/ });
      expect(hub.requests).toHaveLength(0);
      await app.client.call('settings.update', { hubAccess: 'online' });
      const started = await app.client.call('local.download.start', { repo: GATED, file: FILE });
      const d = await until(app.services.local.downloads, started.id, settled);
      expect(d).toMatchObject({ state: 'done', modelId: `${GATED}/${FILE}` });
      const resolves = hub.requestsTo(`/${GATED}/resolve/main/${FILE}`);
      expect(resolves.length).toBeGreaterThan(0);
      expect(resolves.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
      expect(hub.cdn.requests.length).toBeGreaterThan(0);
      expect(hub.cdn.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
      expect(JSON.stringify(hub.cdn.requests.map((r) => r.headers))).not.toContain(TOKEN);
    } finally {
      await app.close();
    }
  });

  it('hashes a large part on a thread with the same sha256, in pieces, and starts over on reset', async () => {
    const big = Buffer.concat([one, ...parts, one, ...parts, one]);
    const h = hasherFor(big.length, 0);
    try {
      h.update(big.subarray(0, 1000));
      h.reset();
      for (let at = 0; at < big.length; at += 300_001) h.update(big.subarray(at, at + 300_001));
      expect(await h.digest()).toBe(sha(big));
    } finally {
      h.close();
    }
  });

  it('reports speed over the last seconds only, and sizes as the Hub writes them', () => {
    let now = 0;
    const meter = new SpeedMeter(5000, () => now);
    for (; now <= 12_000; now += 500) meter.add(now < 6000 ? now * 1000 : 6_000_000); // 1 MB/s, then a stall
    expect(meter.bytesPerSecond()).toBe(0);
    meter.reset();
    for (now = 0; now <= 2000; now += 500) meter.add(now * 2000);
    expect(meter.bytesPerSecond()).toBe(2_000_000);
    expect([formatBytes(999), formatBytes(150_000), formatBytes(1_321_083_200)]).toEqual(['999 B', '150 KB', '1.3 GB']);
  });
});
