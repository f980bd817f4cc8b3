import { parentPort } from 'node:worker_threads';
import { toAppError } from '@shared/errors';
import type { ExtractLimits } from './services/documents/extract/limits';
import { extractRequestSchema, REPLY_SLICE, type ExtractReply } from './services/documents/extract/protocol';
import { readDocument } from './services/documents/extract/read';

// The extraction worker's entry: documents are read (extracted and chunked) here, on a thread with a heap cap of its own, so a hostile file
// (a zip bomb, a PDF that never ends) costs this thread, which main ends and starts again, never main's event loop.

const port = parentPort;
if (!port) throw new Error('extract-worker runs as a worker thread');
port.on('message', (m: unknown) => {
  const req = extractRequestSchema.parse(m);
  readDocument(req.file, req.limits as Partial<ExtractLimits>).then(
    (doc) => {
      const { chunks } = doc;
      let at = 0;
      for (; at + REPLY_SLICE < chunks.length; at += REPLY_SLICE)
        port.postMessage({ id: req.id, chunks: chunks.slice(at, at + REPLY_SLICE) } satisfies ExtractReply);
      port.postMessage({ id: req.id, doc: { ...doc, chunks: chunks.slice(at) } } satisfies ExtractReply);
    },
    (e: unknown) => port.postMessage({ id: req.id, error: toAppError(e).toJSON() } satisfies ExtractReply),
  );
});
