import { describe, expect, it } from 'vitest';
import { baseModels, withoutSelf } from '@shared/lineage';

describe('a model is never listed in its own tree', () => {
  it('leaves the model out of its base models, whichever case the card or the tags use', () => {
    const self = 'unsloth/Qwen3-4B-GGUF';
    const tags = ['base_model:quantized:Qwen/Qwen3-4B', `base_model:quantized:${self}`];
    expect(baseModels({ base_model: ['Qwen/Qwen3-4B', 'unsloth/qwen3-4b-gguf'] }, tags, self)).toEqual([
      { id: 'Qwen/Qwen3-4B', relation: 'quantized' },
    ]);
    // Without the model's own id nothing is dropped (the other callers).
    expect(baseModels({}, tags).map((b) => b.id)).toEqual(['Qwen/Qwen3-4B', self]);
  });
  it('leaves it out of the lists of models derived from it', () => {
    const derived = [{ id: 'a/b-GGUF', downloads: 10 }, { id: 'A/B' }, { id: 'c/d' }];
    expect(withoutSelf(derived, 'a/b')).toEqual([{ id: 'a/b-GGUF', downloads: 10 }, { id: 'c/d' }]);
  });
});
