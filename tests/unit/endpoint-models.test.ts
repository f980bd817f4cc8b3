import { describe, expect, it } from 'vitest';
import { describeModels } from '../../electron/main/services/endpoints/models';

const noFetch = (() => {
  throw new Error('no request expected');
}) as unknown as typeof fetch;

describe('describeModels', () => {
  it('OpenRouter: context_length, and hugging_face_id decides the Hub repo (empty: none)', async () => {
    const entries = [
      {
        id: 'meta-llama/llama-3.1-8b-instruct',
        context_length: 131072,
        hugging_face_id: 'meta-llama/Llama-3.1-8B-Instruct',
      },
      { id: 'openai/gpt-4o', context_length: 128000, hugging_face_id: '' },
      { id: 'qwen/qwen3-8b:free', context_length: 40960, hugging_face_id: null },
    ];
    const models = await describeModels(
      entries,
      { baseUrl: 'https://openrouter.ai/api/v1', fetch: noFetch },
      AbortSignal.timeout(1000),
    );
    expect(models).toEqual([
      {
        id: 'meta-llama/llama-3.1-8b-instruct',
        contextLength: 131072,
        contextSource: 'server',
        hubRepo: 'meta-llama/Llama-3.1-8B-Instruct',
      },
      { id: 'openai/gpt-4o', contextLength: 128000, contextSource: 'server' },
      { id: 'qwen/qwen3-8b:free', contextLength: 40960, contextSource: 'server' },
    ]);
  });

  it('an id naming a Hub repo or one of its GGUF files links to it; a bare file does not', async () => {
    const entries = [{ id: 'unsloth/Qwen3-8B-GGUF/Qwen3-8B-Q4_K_M.gguf' }, { id: 'Qwen3-8B-Q4_K_M.gguf' }];
    const models = await describeModels(
      entries,
      { baseUrl: 'http://127.0.0.1:8000/v1', fetch: noFetch },
      AbortSignal.timeout(1000),
    );
    expect(models).toEqual([
      { id: 'unsloth/Qwen3-8B-GGUF/Qwen3-8B-Q4_K_M.gguf', hubRepo: 'unsloth/Qwen3-8B-GGUF' },
      { id: 'Qwen3-8B-Q4_K_M.gguf' },
    ]);
  });
});
