import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm, stat, truncate } from 'node:fs/promises';
import { basename } from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { AppError } from '@shared/errors';
import { untilAborted } from '../../http/until-aborted';
import { companyNetworkProblem } from '../../net/network-words';
import { hasherFor, type Hasher } from './hasher';

/** The connection broke mid-file (reset, truncated body, refused range): worth another try with Range. */
class CutError extends Error {}

export interface PartJob {
  /** The `resolve` URL (the fetch follows its redirect to the CDN). */
  url: string;
  /** `<final>.part`: what is already there is kept and continued. */
  path: string;
  size: number;
  fetch: typeof fetch;
  signal: AbortSignal;
  /** The bytes of this part now on disk, after each chunk. */
  onProgress: (have: number) => void;
  /** The Hub's refusal of the request (401, 404…) as an AppError. */
  refuse: (res: Response) => AppError;
}

async function sizeOnDisk(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** Feeds the first `n` bytes on disk to the hash: a resumed part's sha256 covers what an earlier run wrote. */
async function hashFile(path: string, n: number, hash: Hasher, signal: AbortSignal): Promise<void> {
  for await (const chunk of createReadStream(path, { start: 0, end: n - 1, signal, highWaterMark: BATCH }))
    hash.update(chunk as Buffer);
}

/** Reads of a resumed part's first bytes. */
const BATCH = 1024 * 1024;

const reason = (e: unknown) => {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
};

/**
 * Fetches what is missing of one part into its `.part` file (`Range: bytes=<have>-`; a 200 instead of 206 starts
 * over), hashing while writing, and returns the whole part's sha256. Streams to disk with backpressure: the file is
 * never held in memory. Throws CutError when the connection breaks, the AbortSignal's reason when aborted.
 */
export async function fetchPart(job: PartJob): Promise<string> {
  const hash = hasherFor(job.size);
  try {
    return await fetchInto(job, hash);
  } finally {
    hash.close();
  }
}

async function fetchInto(job: PartJob, hash: Hasher): Promise<string> {
  const { path, size, signal } = job;
  let have = await sizeOnDisk(path);
  if (have > size) {
    await truncate(path, 0);
    have = 0;
  }
  if (have > 0) await hashFile(path, have, hash, signal);
  job.onProgress(have);
  if (have === size) return hash.digest();

  let res: Response;
  try {
    res = await job.fetch(job.url, { headers: have ? { range: `bytes=${have}-` } : {}, signal });
  } catch (e) {
    if (signal.aborted) throw signal.reason;
    // A proxy or certificate problem does not go away by trying again: said at once, in words.
    const company = companyNetworkProblem(e, new URL(job.url).host);
    if (company) throw company;
    throw new CutError(reason(e));
  }
  if (res.status === 416) {
    await res.body?.cancel();
    await truncate(path, 0);
    throw new CutError('the server refused to continue the file');
  }
  if (!res.ok || !res.body) throw job.refuse(res);
  const from = Number(/^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '')?.[1] ?? 0);
  if (have > 0 && (res.status !== 206 || from !== have)) {
    if (res.status === 206) {
      await res.body.cancel();
      throw new CutError('the server sent the wrong range');
    }
    // The server sent the file from its start: start over.
    hash.reset();
    have = 0;
    job.onProgress(0);
  }

  // The body as a Node stream (iterating the web stream itself measured at two thirds of a plain fetch's speed on
  // loopback), written with backpressure in 1 MB writes. On a cut, what arrived is still written (end, not destroy),
  // so the next try continues from it.
  const out = createWriteStream(path, { flags: have ? 'a' : 'w', highWaterMark: 1024 * 1024 });
  let writeError: Error | undefined;
  out.on('error', (e) => (writeError = e));
  const body = Readable.fromWeb(res.body as WebStream<Uint8Array>) as AsyncIterable<Buffer>;
  let overrun = false;
  try {
    // Until aborted: a pause waits for this loop to end, and a body read can stay pending after the abort.
    for await (const chunk of untilAborted(body, signal)) {
      if (writeError) break;
      // Checked before the write: a server that sends without end would otherwise fill the disk.
      if (have + chunk.byteLength > size) {
        overrun = true;
        break;
      }
      hash.update(chunk);
      have += chunk.byteLength;
      if (!out.write(chunk)) await drained(out, signal);
      job.onProgress(have);
    }
  } catch (e) {
    if (signal.aborted) throw signal.reason;
    if (!writeError) throw new CutError(reason(e));
  } finally {
    // Flushed and closed before anything else looks at the file: a resume continues from exactly what was hashed.
    out.end();
    if (!out.closed) await once(out, 'close').catch(() => {});
  }
  if (writeError) {
    const full = (writeError as NodeJS.ErrnoException).code === 'ENOSPC';
    throw new AppError(
      full ? 'unavailable' : 'internal',
      full ? 'The disk is full: free some space, then resume.' : `Could not write ${path}: ${writeError.message}`,
    );
  }
  if (signal.aborted) throw signal.reason;
  if (overrun) {
    await rm(path, { force: true });
    const file = basename(path).replace(/\.part$/, '');
    throw new AppError(
      'upstream',
      `The Hub sent more of ${file} than the ${size} bytes its file list gives: the download was stopped and its partial file deleted.`,
    );
  }
  if (have < size) throw new CutError('the connection closed before the end of the file');
  return hash.digest();
}

async function drained(out: WriteStream, signal: AbortSignal): Promise<void> {
  await once(out, 'drain', { signal }).catch((e) => {
    if (!signal.aborted) throw e;
  });
}

/**
 * Runs `attempt` again after a CutError, waiting `delayMs`, then twice that…, until it succeeds or fails `retries`
 * times in a row without progress (a connection that keeps moving forward is never given up on).
 */
export async function retryCuts<T>(o: {
  attempt: () => Promise<T>;
  progress: () => number;
  retries: number;
  delayMs: number;
  signal: AbortSignal;
  /** The error once it gives up. */
  stopped: (why: string) => AppError;
  onRetry: (failures: number) => void;
}): Promise<T> {
  let failures = 0;
  let progressAtCut = -1;
  for (;;) {
    try {
      return await o.attempt();
    } catch (e) {
      if (!(e instanceof CutError) || o.signal.aborted) throw e;
      failures = o.progress() > progressAtCut ? 1 : failures + 1;
      progressAtCut = o.progress();
      if (failures > o.retries) throw o.stopped(e.message);
      o.onRetry(failures);
      await sleep(o.delayMs * 2 ** (failures - 1), o.signal);
    }
  }
}

/** Waits `ms`, or less when the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((ok) => {
    const t = setTimeout(ok, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), ok()), { once: true });
  });
}
