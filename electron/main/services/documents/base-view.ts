import type { KnowledgeBase } from '@shared/contract/documents';
import type { Indexer } from './indexer';
import { embedderKey, type DocIndexPort } from './ports';

/** What the index stores, plus what only the running queue knows: speed, time left, paused, stopped. */
export function baseView(b: KnowledgeBase, index: DocIndexPort, indexer: Indexer): KnowledgeBase {
  const s = indexer.state(b.id);
  const next = index.getNextEmbedder();
  const out: KnowledgeBase = {
    ...b,
    documents: b.documents.map((d) =>
      d.state === 'embedding'
        ? { ...d, ...indexer.rates.of(d.id, d.chunks - d.chunksDone) }
        : // Only a failed document shows an error (one read again after an interrupted run keeps a mark).
          d.state !== 'error' && d.error
          ? { ...d, error: undefined }
          : d,
    ),
  };
  if (next && !b.reembedding) {
    const { total, embedded } = index.countChunks([b.id], embedderKey(next));
    out.reembedding = { embedder: next, done: embedded, total };
  }
  if (s.paused) out.paused = true;
  if (s.error) out.error = s.error.toJSON();
  return out;
}
