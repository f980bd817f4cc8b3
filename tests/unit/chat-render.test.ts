import { describe, expect, it } from 'vitest';
import { stableBoundary } from '../../renderer/src/pages/chat/stream-split';

describe('streaming Markdown split', () => {
  it('finished paragraphs end at the last blank line; the unfinished one stays open', () => {
    const t = 'First para.\n\nSecond **bo';
    expect(t.slice(0, stableBoundary(t, 0))).toBe('First para.\n\n');
    expect(stableBoundary('no blank line yet', 0)).toBe(0);
  });

  it('never splits inside an open code fence, and resumes after it closes', () => {
    const open = 'Intro.\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
    expect(open.slice(0, stableBoundary(open, 0))).toBe('Intro.\n\n');
    const closed = open + '```\n\nAfter.';
    expect(closed.slice(stableBoundary(closed, 0))).toBe('After.');
  });

  it('continues from a previous boundary without moving back', () => {
    const t = 'a\n\nb\n\nc';
    const first = stableBoundary(t.slice(0, 4), 0);
    expect(first).toBe(3);
    expect(stableBoundary(t, first)).toBe(6);
  });
});
