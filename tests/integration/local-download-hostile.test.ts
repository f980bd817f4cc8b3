import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Download } from '@shared/contract/local-downloads';
import { AppError } from '@shared/errors';
import { Downloads, type DownloadsOptions } from '../../electron/main/services/local/download/downloads';
import { createLogger } from '../../electron/main/services/log';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import type { HubRepoPageFields } from '../fixtures/hub-repos';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { tempDir } from '../helpers/app';

// Issue #38: a Hub (HF_ENDPOINT or a mirror in Settings) whose answers are endless, silent, too long or garbled.

const REPO = 'acme/tiny-GGUF';
const HUGE = 'acme/huge-GGUF';
const FILE = 'tiny-Q8_0.gguf';
const TREE = `/api/models/${REPO}/tree/main`;
const one = tinyGguf({ seed: 1 });

let hub: HubFixture;
let dir: ReturnType<typeof tempDir>;
const made: Downloads[] = [];

beforeEach(async () => {
  hub = await startHubFixture({
    models: [
      { id: REPO, library_name: 'gguf', files: { [FILE]: one } },
      {
        id: HUGE,
        generatedParts: { name: 'huge-Q4_K_M', count: 30_000 },
        files: { 'huge-Q4_K_M-00001-of-30000.gguf': one },
      },
    ],
  });
  dir = tempDir('hubdesk-dl-hostile-');
});

afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => d.dispose()));
  await hub.stop();
  dir.remove();
});

const models = () => join(dir.path, 'models');

function downloads(opts: Partial<DownloadsOptions> = {}): Downloads {
  const d = new Downloads({
    ...{ dir: models(), endpoint: () => hub.url, fetch, log: createLogger(), retryDelayMs: 5, hubTimeoutMs: 300 },
    ...opts,
  });
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
const failure = (p: Promise<unknown>) => p.then(() => undefined).catch((e: AppError) => e);
const lie = (sizes: Record<string, unknown>) => ((hub.models[0] as HubRepoPageFields).treeSizes = sizes);

/** The download after a bad answer: the next start is looked up afresh and finishes. */
async function nextOneWorks(dl: Downloads): Promise<void> {
  const started = await dl.start({ repo: REPO, file: FILE });
  expect(await until(dl, started.id, settled)).toMatchObject({ state: 'done' });
}

describe('Downloads from a hostile Hub', () => {
  it('F3: an endless file list stops at its cap with words, and the next start works', async () => {
    hub.endless.push(TREE);
    const dl = downloads({ hubTimeoutMs: 20_000 });
    const err = await failure(dl.start({ repo: REPO, file: FILE }));
    expect(err).toMatchObject({
      code: 'upstream',
      message: `${hub.url} sent a file list for ${REPO} larger than 32 MB.`,
    });
    expect(dl.list()).toEqual([]);
    hub.endless = [];
    await nextOneWorks(dl);
  }, 30_000);

  it('F3: a file list or HEAD that never answers fails in time, and a retry starts afresh', async () => {
    const dl = downloads();
    hub.fault(TREE, { hang: true, times: 1 });
    const t0 = performance.now();
    expect(await failure(dl.start({ repo: REPO, file: FILE }))).toMatchObject({
      code: 'timeout',
      message: `The Hub at ${hub.url} did not answer within 0.3 s: check the Hub endpoint in Settings, or try again.`,
    });
    expect(performance.now() - t0).toBeLessThan(3000);

    hub.stalled.push(TREE);
    expect(await failure(dl.start({ repo: REPO, file: FILE }))).toMatchObject({
      code: 'timeout',
      message: `${hub.url} did not send the file list of ${REPO} within 0.3 s.`,
    });
    hub.stalled = [];

    hub.fault(`/${REPO}/resolve/main/${FILE}`, { hang: true, times: 1 });
    expect(await failure(dl.start({ repo: REPO, file: FILE }))).toMatchObject({ code: 'timeout' });
    await nextOneWorks(dl);
  }, 15_000);

  it('F4: a file served past its size stops there, its .part deleted, with words', async () => {
    hub.cdn.pastEnd = true;
    const dl = downloads();
    const started = await dl.start({ repo: REPO, file: FILE });
    const d = await until(dl, started.id, settled);
    expect(d.state).toBe('failed');
    expect(d.error).toMatchObject({
      code: 'upstream',
      message: `The Hub sent more of ${FILE} than the ${one.length} bytes its file list gives: the download was stopped and its partial file deleted.`,
    });
    const path = join(models(), REPO, FILE);
    expect([existsSync(path), existsSync(`${path}.part`)]).toEqual([false, false]);

    hub.cdn.pastEnd = false;
    await dl.resume(d.id);
    expect(await until(dl, d.id, settled)).toMatchObject({ state: 'done', receivedBytes: one.length });
  }, 15_000);

  it('F6/F13: a size that is not a count of bytes is refused as upstream, naming the file', async () => {
    const dl = downloads();
    for (const size of ['0abc', -5, 1.5, 2 ** 60, null]) {
      lie({ [FILE]: size });
      const err = await failure(dl.start({ repo: REPO, file: FILE }));
      expect(err, String(size)).toMatchObject({
        code: 'upstream',
        message: `The Hub gives ${FILE} in ${REPO} the size ${JSON.stringify(size)}, which is not a number of bytes.`,
      });
    }
    expect(dl.list()).toEqual([]);
    lie({});
    await nextOneWorks(dl);
  });

  it('F13: a file list that is not an array is upstream, not internal', async () => {
    const dl = downloads();
    hub.fail(TREE, { status: 200, body: { error: 'not a tree' }, times: 1 });
    expect(await failure(dl.start({ repo: REPO, file: FILE }))).toMatchObject({
      code: 'upstream',
      message: `The Hub's file list for ${REPO} is not a list of files: is the endpoint a Hub?`,
    });
    await nextOneWorks(dl);
  });

  it('F10: a split GGUF of 30,000 parts is matched against its tree without a stall', async () => {
    const dl = downloads({ freeBytes: async () => 0, hubTimeoutMs: 10_000 });
    const t0 = performance.now();
    const err = await failure(dl.start({ repo: HUGE, file: 'huge-Q4_K_M-00001-of-30000.gguf' }));
    const ms = performance.now() - t0;
    // The parts were all found (30 tree pages), then refused for space before any byte.
    expect(err).toMatchObject({ message: /^Not enough disk space: needs 30\.0 GB/ });
    expect(hub.requestsTo(`/api/models/${HUGE}/tree/main`)).toHaveLength(30);
    // Before: 30,000 × 30,000 name comparisons, 11.5 s measured.
    expect(ms).toBeLessThan(5000);
  }, 30_000);
});

describe('The saved download list and manifest', () => {
  const row = (id: string, repo: string, patch: Record<string, unknown> = {}) => ({
    d: {
      ...{ id, repo, revision: 'main', file: FILE, files: [FILE], state: 'paused' },
      ...{ receivedBytes: 0, totalBytes: one.length, createdAt: '2026-01-01T00:00:00.000Z', bytesPerSecond: 0 },
      ...patch,
    },
    parts: [{ file: FILE, size: one.length, sha256: 'a'.repeat(64) }],
  });

  it('F6: one bad row of the queue costs that row; the others come back', () => {
    mkdirSync(models(), { recursive: true });
    const downloadsList = [row('bad', 'acme/bad', { totalBytes: '0abc' }), row('good', REPO), { nonsense: true }];
    writeFileSync(join(models(), '.hubdesk-queue.json'), JSON.stringify({ version: 1, downloads: downloadsList }));
    expect(downloads().list()).toMatchObject([{ id: 'good', repo: REPO, state: 'paused' }]);
  });

  it('F6: one bad manifest entry leaves every other download verified', async () => {
    const dl = downloads();
    await nextOneWorks(dl);
    const path = join(models(), '.hubdesk-downloads.json');
    const { readManifest } = await import('../../electron/main/services/local/manifest');
    const m = readManifest(models(), createLogger());
    m.files['acme/bad/x.gguf'] = { ...m.files[`${REPO}/${FILE}`], repo: 'acme/bad', size: '0abc' as unknown as number };
    writeFileSync(path, JSON.stringify(m));
    expect(Object.keys(readManifest(models(), createLogger()).files)).toEqual([`${REPO}/${FILE}`]);
  });
});
