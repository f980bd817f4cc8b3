import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** A sha256 fed in pieces. */
export interface Hasher {
  update(bytes: Uint8Array): void;
  /** Starts again from no bytes. */
  reset(): void;
  digest(): Promise<string>;
  /** Frees the worker, when there is one (after digest, or on an abort). */
  close(): void;
}

// Hashing costs about as much CPU as receiving and writing the bytes: a large part is hashed on another thread, so
// the download runs at the speed of a plain fetch to disk. Eval'd, so there is no separate file to bundle.
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
let hash = createHash('sha256');
parentPort.on('message', (m) => {
  if (m === 'digest') parentPort.postMessage(hash.digest('hex'));
  else if (m === 'reset') hash = createHash('sha256');
  else hash.update(m);
});
`;

/** Parts smaller than this are hashed in place: starting a thread would cost more than it saves. */
const WORKER_FROM = 16 * 1024 * 1024;

function inPlace(): Hasher {
  let hash = createHash('sha256');
  return {
    update: (b) => void hash.update(b),
    reset: () => void (hash = createHash('sha256')),
    digest: async () => hash.digest('hex'),
    close: () => {},
  };
}

/** Pieces are sent to the thread a megabyte at a time: one message per network chunk would cost more than hashing. */
const BATCH = 1024 * 1024;

function onThread(): Hasher {
  const worker = new Worker(WORKER, { eval: true });
  worker.unref();
  let pending: Uint8Array[] = [];
  let bytes = 0;
  const send = () => {
    if (!bytes) return;
    // Its own buffer (never Node's shared pool), so it can be handed over without a copy.
    const joined = new Uint8Array(bytes);
    let at = 0;
    for (const p of pending) {
      joined.set(p, at);
      at += p.byteLength;
    }
    worker.postMessage(joined, [joined.buffer]);
    pending = [];
    bytes = 0;
  };
  return {
    update: (b) => {
      pending.push(b);
      bytes += b.byteLength;
      if (bytes >= BATCH) send();
    },
    reset: () => {
      pending = [];
      bytes = 0;
      worker.postMessage('reset');
    },
    digest: () =>
      new Promise<string>((ok, fail) => {
        send();
        worker.once('message', ok);
        worker.once('error', fail);
        worker.postMessage('digest');
      }),
    close: () => void worker.terminate(),
  };
}

/** A hasher for `bytes` more bytes (on a thread from `threadFrom` bytes). */
export function hasherFor(bytes: number, threadFrom = WORKER_FROM): Hasher {
  return bytes >= threadFrom ? onThread() : inPlace();
}
