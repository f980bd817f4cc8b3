import type { Embedder } from '@shared/contract/documents';
import type { Logger } from '../log';
import { basesWithSources, type Indexer } from './indexer';
import { embedderKey, type DocIndexPort } from './ports';

/**
 * The embedding model for every base. The first one is simply set; a new one is built beside the current one
 * (which keeps serving) and replaces it when complete; choosing the current one again stops a re-embed.
 */
export function switchEmbedder(index: DocIndexPort, indexer: Indexer, log: Logger, e: Embedder): void {
  const cur = index.getEmbedder();
  const next = index.getNextEmbedder();
  if (next && embedderKey(next) !== embedderKey(e)) index.dropEmbedder(embedderKey(next));
  const bases = basesWithSources(index);
  if (!cur || !index.countChunks(bases, embedderKey(cur)).embedded) {
    // Nothing indexed under another model: nothing to rebuild.
    if (cur && embedderKey(cur) !== embedderKey(e)) index.dropEmbedder(embedderKey(cur));
    index.setEmbedder(e);
    index.setNextEmbedder(undefined);
  } else index.setNextEmbedder(embedderKey(cur) === embedderKey(e) ? undefined : e);
  indexer.resumeAll(bases);
  log.info('embedder set', {
    embedder: embedderKey(e),
    reembed: !!cur && embedderKey(cur) !== embedderKey(e),
  });
}
