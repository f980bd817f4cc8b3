import type { LocalModel } from '@shared/contract/ollama';

// Older Ollama lists no capabilities in /api/tags: BERT-like families and the usual names are embedding models.
const OLLAMA_EMBED = /bert|embed|bge|minilm|gte|e5-|arctic-embed|paraphrase/i;

/** Whether an Ollama model makes embeddings: as its capabilities say when listed, else by its family and name. */
export function isOllamaEmbedder(m: LocalModel): boolean {
  if (m.capabilities) return m.capabilities.includes('embedding');
  return OLLAMA_EMBED.test(`${m.details.family ?? ''} ${(m.details.families ?? []).join(' ')} ${m.name}`);
}
