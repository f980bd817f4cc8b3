import { describe, expect, it } from 'vitest';
import { describeInputIssues, fieldLabel } from '@shared/input-labels';

describe('input labels', () => {
  it('names a known field in words, wherever it sits in the path', () => {
    expect(fieldLabel(['ollamaHost'])).toBe('Ollama address');
    expect(fieldLabel(['messages', '3', 'content'])).toBe('Message');
    expect(fieldLabel(['items', '0'])).toBe('items.0');
  });

  it('keeps the path of a field it has no words for', () => {
    expect(fieldLabel(['options', 'numCtx'])).toBe('options.numCtx');
  });

  it('joins issues into one line, an issue of the whole input as its message, without repeats', () => {
    expect(
      describeInputIssues([
        { path: [], message: 'Unrecognized key: "x"' },
        { path: ['hubEndpoint'], message: 'must be an http(s) URL' },
        { path: ['hubEndpoint'], message: 'must be an http(s) URL' },
      ]),
    ).toBe('Unrecognized key: "x"; Hub endpoint: must be an http(s) URL');
  });
});
