import { describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { Indexer } from '../../electron/main/services/documents/indexer';
import { createLogger } from '../../electron/main/services/log';
import { MemoryDocIndex } from '../helpers/memory-doc-index';

/**
 * Stop on a base while its file is read. The reading is a promise that only an abort ends, so a Stop that misses
 * the reading leaves `idle()` waiting for ever (the test's timeout), as it once did when Stop came between the
 * row showing `extracting` and the reading starting.
 */
describe('indexer Stop', () => {
  it('a Stop the moment a file shows `extracting` ends its reading; the file waits in the queue', async () => {
    const index = new MemoryDocIndex();
    const base = index.createBase('Notes');
    const source = index.addSource(base, 'file', __filename);
    const doc = index.upsertDocument({
      base,
      source,
      name: 'notes.md',
      file: __filename,
      path: 'notes.md',
      sizeBytes: 0,
      mtimeMs: 0,
      state: 'queued',
      pinned: false,
      tokens: 0,
    });
    let reads = 0;
    const indexer = new Indexer({
      index,
      embed: () => Promise.reject(new Error('not reached')),
      log: createLogger({ minLevel: 'error' }),
      read: (_file, signal) => {
        reads++;
        return new Promise((_resolve, reject) => {
          const stop = () => reject(new AppError('aborted', 'stopped'));
          if (signal?.aborted) stop();
          else signal?.addEventListener('abort', stop, { once: true });
        });
      },
    });
    let stopped = false;
    indexer.onChange(() => {
      if (stopped || index.document(doc)?.state !== 'extracting') return;
      stopped = true;
      indexer.cancel(base);
    });
    indexer.kick(base);
    await indexer.idle();
    expect(reads).toBe(1);
    expect(index.document(doc)).toMatchObject({ state: 'queued' });
    expect(indexer.state(base)).toMatchObject({ paused: true, running: false });
  }, 5_000);
});
