import { describe, expect, it } from 'vitest';
import { hubRepoOf } from '@shared/hub-repo-name';

describe('hubRepoOf', () => {
  it.each([
    ['Qwen/Qwen3-8B', 'Qwen/Qwen3-8B'],
    ['unsloth/Qwen3-8B-GGUF:Q4_K_M', 'unsloth/Qwen3-8B-GGUF'],
    ['hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q8_0', 'bartowski/Llama-3.2-1B-Instruct-GGUF'],
    ['https://huggingface.co/org/name', 'org/name'],
    ['org/name/file-Q4_K_M.gguf', 'org/name'],
    ['org/name/sub/dir/file.GGUF', 'org/name'],
    ['qwen/qwen3-8b', 'qwen/qwen3-8b'],
  ])('%s names %s', (id, repo) => {
    expect(hubRepoOf(id)).toBe(repo);
  });

  it.each([
    'Qwen3-0.6B-Q8_0.gguf',
    '/models/Qwen3-8B',
    'org/name/extra',
    'org/../name',
    '-org/name',
    'org/.name',
    'a b/c',
    '',
    `${'a'.repeat(97)}/b`,
  ])('%s names no repo', (id) => {
    expect(hubRepoOf(id)).toBeUndefined();
  });
});
