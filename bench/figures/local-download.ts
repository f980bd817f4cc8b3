import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { resolveUrl } from '../../electron/main/services/local/download/hub-files';
import { createLogger } from '../../electron/main/services/log';
import { keyedFetch } from '../../electron/main/services/net/bound-fetch';
import { startHubFixture } from '../../tests/fixtures/hub';
import { downloadOnce } from '../lib/download';
import { figure, type BenchContext, type Figure } from '../lib/measure';

const REPO = 'bench/big-GGUF';
const FILE = 'big-Q4_K_M.gguf';
const SIZE = 256 * 1024 * 1024;
const TOKEN = 'hf_benchToken00000001';

/** A plain fetch of the same URL (following the same redirect to the CDN), piped to a file: the baseline. */
async function plainFetch(url: string, path: string): Promise<void> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`plain fetch: ${res.status}`);
  await pipeline(Readable.fromWeb(res.body as WebStream<Uint8Array>), createWriteStream(path));
}

/**
 * The floor of any verifying download: the same plain fetch with the sha256 computed as the bytes pass (no checksum,
 * no trust). HubDesk cannot be faster than this and still check the file before it is used.
 */
async function hashedFetch(url: string, path: string): Promise<void> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`hashed fetch: ${res.status}`);
  const hash = createHash('sha256');
  const body = Readable.fromWeb(res.body as WebStream<Uint8Array>);
  body.on('data', (c: Buffer) => hash.update(c));
  await pipeline(body, createWriteStream(path));
  hash.digest('hex');
}

/**
 * Download throughput from the same local Hub fixture (resolve → 302 → CDN on another origin), a 256 MB file of
 * random bytes with its true sha256 (large enough that the per-download calls, tree and HEAD, weigh as little as on a real GGUF): HubDesk's Downloads (the tree lookup, the gated probe, the key-bound fetch,
 * streaming to `.part` while hashing, the sha256 check, the rename and the manifest) against a plain fetch piped to
 * a file, alternating, in MB/s. Target: ≥ 0.9× the plain fetch.
 */
export async function localDownload(ctx: BenchContext): Promise<Figure[]> {
  const bytes = new Uint8Array(randomBytes(SIZE));
  const hub = await startHubFixture({ models: [{ id: REPO, files: { [FILE]: bytes } }], tokens: [TOKEN] });
  const root = mkdtempSync(join(tmpdir(), 'hubdesk-bench-dl-'));
  const origin = new URL(hub.url).origin;
  const hubFetch = keyedFetch((o) => (o === origin ? TOKEN : undefined), 'Bearer', { secrets: () => [TOKEN] });
  const log = createLogger();
  const mbps = (ms: number) => SIZE / 1e6 / (ms / 1000);
  const ours: number[] = [];
  const plain: number[] = [];
  const floor: number[] = [];
  try {
    const url = resolveUrl(hub.url, REPO, 'main', FILE);
    await plainFetch(url, join(root, 'warm.gguf')); // the fixture hashes the file once, outside the clock
    for (let run = 0; run < ctx.runs(5, 3); run++) {
      const base = join(root, `plain-${run}.gguf`);
      const dir = join(root, `models-${run}`);
      const viaHubDesk = async () => {
        ours.push(mbps(await downloadOnce({ dir, endpoint: hub.url, fetch: hubFetch, log, repo: REPO, file: FILE })));
      };
      const viaFetch = async () => {
        let t = performance.now();
        await plainFetch(url, base);
        plain.push(mbps(performance.now() - t));
        rmSync(base, { force: true });
        t = performance.now();
        await hashedFetch(url, base);
        floor.push(mbps(performance.now() - t));
      };
      // Alternating which goes first, so neither always meets a warm page cache.
      if (run % 2) await viaFetch().then(viaHubDesk);
      else await viaHubDesk().then(viaFetch);
      ctx.log(
        `run ${run + 1}: HubDesk ${ours.at(-1)!.toFixed(0)} MB/s, plain fetch ${plain.at(-1)!.toFixed(0)} MB/s, ` +
          `plain fetch + sha256 ${floor.at(-1)!.toFixed(0)} MB/s`,
      );
      rmSync(base, { force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await hub.stop();
    rmSync(root, { recursive: true, force: true });
  }
  return [
    figure('local-download', 'MB/s', ours, {
      baseline: plain,
      target: '≥ 0.9× a plain fetch to disk',
      note: '256 MB from the local Hub fixture via its CDN redirect, sha256 checked',
    }),
    figure('local-download-floor', 'MB/s', floor, {
      baseline: plain,
      note: 'the floor: a plain fetch that also computes the sha256 (what checking the file costs on loopback)',
    }),
    figure('local-download-vs-floor', 'MB/s', ours, {
      baseline: floor,
      target: '≥ 0.9× the hashed plain fetch',
      note: 'HubDesk against the floor: its own overhead beyond the checksum the issue requires',
    }),
  ];
}
