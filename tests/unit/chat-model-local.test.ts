import { describe, expect, it } from 'vitest';
import { isLocalModelId, modelMismatch, modelOnSwitch } from '@shared/chat-model';

// The built-in engine's model ids: a GGUF on disk, named by its Hub repo and file or by its absolute path.
describe('which model ids the built-in engine takes', () => {
  it('a repo file id or an absolute path to a .gguf reads as a local id', () => {
    for (const id of [
      'Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf',
      'unsloth/gemma-3-GGUF/Q4_K_M/gemma-3-Q4_K_M-00001-of-00002.gguf',
      '/home/me/models/tiny.GGUF',
      'C:\\Users\\me\\models\\tiny.gguf',
    ])
      expect(isLocalModelId(id), id).toBe(true);
    for (const id of [
      'llama3.2:1b',
      'hf.co/Qwen/Qwen3-0.6B-GGUF:Q8_0',
      'Qwen/Qwen3-0.6B',
      'org/name/../x.gguf',
      'x.gguf',
    ])
      expect(isLocalModelId(id), id).toBe(false);
  });

  it('modelMismatch refuses an Ollama name or a Hub id on the built-in engine, in words, and takes a local id', () => {
    expect(modelMismatch('local', 'Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf')).toBeUndefined();
    expect(modelMismatch('local', '')).toBeUndefined();
    expect(modelMismatch('local', 'llama3.2:1b')).toMatch(/“llama3\.2:1b” is not a model on disk.*GGUF/);
    expect(modelMismatch('local', 'Qwen/Qwen3-0.6B')).toMatch(/not a model on disk/);
    // The other engines are not affected by a local id's shape beyond what they already said.
    expect(modelMismatch('ollama', 'Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf')).toBeUndefined();
    expect(modelMismatch('provider', 'Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf')).toMatch(/not a Hub model id/);
  });

  it('switching engines keeps a local id only on the built-in engine, and nothing else there', () => {
    const id = 'Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf';
    expect(modelOnSwitch('local', id)).toBe(id);
    expect(modelOnSwitch('local', '/models/tiny.gguf')).toBe('/models/tiny.gguf');
    expect(modelOnSwitch('local', 'llama3.2:1b')).toBe('');
    expect(modelOnSwitch('local', 'Qwen/Qwen3-0.6B')).toBe('');
    expect(modelOnSwitch('ollama', id)).toBe('');
    expect(modelOnSwitch('provider', id)).toBe('');
    expect(modelOnSwitch('endpoint', id)).toBe('');
    expect(modelOnSwitch('provider', 'Qwen/Qwen3-0.6B')).toBe('Qwen/Qwen3-0.6B');
  });
});
