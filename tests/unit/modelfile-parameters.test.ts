import { describe, expect, it } from 'vitest';
import { parseParameters } from '../../renderer/src/pages/models/modelfile-parameters';

describe('Modelfile parameters typed in "Create a model"', () => {
  it('reads `name value` lines: numbers as numbers, quoted text unquoted, a repeated name as a list', () => {
    expect(parseParameters('top_k 40\nrepeat_penalty 1.1\nseed -3\nstop "<|end|>"\nstop User:\n')).toEqual({
      params: { top_k: 40, repeat_penalty: 1.1, seed: -3, stop: ['<|end|>', 'User:'] },
    });
  });

  it('skips blank lines and # comments, and keeps text that only looks partly like a number', () => {
    expect(parseParameters('\n# sampling\n  min_p   0.05  \nmirostat_tau 5e1\n')).toEqual({
      params: { min_p: 0.05, mirostat_tau: '5e1' },
    });
  });

  it('names the first line that is not `name value`, keeping what was read before it', () => {
    expect(parseParameters('top_k 40\nTopP 0.9\ntop_p 0.9')).toEqual({
      params: { top_k: 40 },
      error: 'line 2: expected "name value", e.g. "top_k 40"',
    });
    expect(parseParameters('num_ctx').error).toBe('line 1: expected "name value", e.g. "top_k 40"');
  });

  it('nothing typed is no parameters', () => {
    expect(parseParameters('')).toEqual({ params: {} });
  });
});
