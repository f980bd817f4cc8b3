import { describe, expect, it } from 'vitest';
import type { LocalModel } from '@shared/contract/ollama';
import { isOllamaEmbedder } from '../../shared/ollama-embedder';

const model = (name: string, family: string, capabilities?: string[]): LocalModel => ({
  name,
  model: name,
  modified_at: '2026-11-26T00:00:00Z',
  size: 1,
  digest: 'd',
  details: { family, families: [family] },
  ...(capabilities ? { capabilities } : {}),
});

describe('which Ollama models make embeddings', () => {
  it('as their capabilities say, when Ollama lists them', () => {
    expect(isOllamaEmbedder(model('granite-retriever:latest', 'granite', ['embedding']))).toBe(true);
    expect(isOllamaEmbedder(model('e5-chat:latest', 'llama', ['completion', 'tools']))).toBe(false);
  });

  it('by family and name, when it does not', () => {
    expect(isOllamaEmbedder(model('nomic-embed-text:latest', 'nomic-bert'))).toBe(true);
    expect(isOllamaEmbedder(model('mxbai-large:latest', 'bert'))).toBe(true);
    expect(isOllamaEmbedder(model('llama3.2:latest', 'llama'))).toBe(false);
  });
});
