import { describe, expect, it } from 'vitest';
import type { Embedder } from '@shared/contract/documents';
import type { LocalModels } from '@shared/contract/local-models';
import { AppError } from '@shared/errors';
import { chooseEmbedder, installedEmbedders } from '../../electron/main/services/documents/choose-embedder';
import { embeddingModel, fixtureModel } from '../fixtures/ollama';

const o = (model: string): Embedder => ({ backend: 'ollama', model });
const noLocal = async (): Promise<LocalModels> => ({ models: [], folders: [] });

describe('the embedding model indexing takes when none was chosen', () => {
  it('the only one installed, whatever its name', () => {
    expect(chooseEmbedder([o('my-embedder:latest')])).toEqual(o('my-embedder:latest'));
  });

  it('else the best known one', () => {
    const pick = chooseEmbedder([o('all-minilm:latest'), o('unknown-embed:v1'), o('nomic-embed-text:latest')]);
    expect(pick).toEqual(o('nomic-embed-text:latest'));
    expect(chooseEmbedder([o('x-embed'), { backend: 'local', model: 'hf/mxbai-embed-large-v1-f16.gguf' }])).toEqual({
      backend: 'local',
      model: 'hf/mxbai-embed-large-v1-f16.gguf',
    });
  });

  it('none: the way on is the pull; several unknown: the person chooses, told so', () => {
    expect(() => chooseEmbedder([])).toThrow(/nomic-embed-text/);
    try {
      chooseEmbedder([o('a-embed'), o('b-embed')]);
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).message).toBe(
        'Indexing waits for you to choose the embedding model: 2 are installed (a-embed, b-embed).',
      );
      expect((e as AppError).details).toEqual({ reason: 'choose' });
    }
  });

  it("installed: Ollama's embedding models (by family when no capabilities are listed) and the built-in GGUFs", async () => {
    const list = await installedEmbedders({
      ollama: async () => ({
        models: [fixtureModel('llama3.2'), fixtureModel('nomic-embed-text', { family: 'nomic-bert' })],
      }),
      local: noLocal,
    });
    expect(list).toEqual([o('nomic-embed-text:latest')]);
  });

  it('Ollama not running and nothing built-in: says to start it and Retry', async () => {
    const down = () => Promise.reject(new AppError('unavailable', 'Cannot reach Ollama at http://127.0.0.1:11434.'));
    await expect(installedEmbedders({ ollama: down, local: noLocal })).rejects.toMatchObject({
      code: 'unavailable',
      message:
        'Indexing waits for Ollama, which makes the embeddings: Cannot reach Ollama at http://127.0.0.1:11434. Start Ollama ("ollama serve"), then Retry.',
      details: { action: { kind: 'retry' } },
    });
    // A reachable Ollama with no embedding model is not "down".
    await expect(
      installedEmbedders({
        ollama: async () => ({ models: [embeddingModel('llama-chat', { family: 'llama', families: ['llama'] })] }),
        local: noLocal,
      }),
    ).resolves.toEqual([]);
  });
});
