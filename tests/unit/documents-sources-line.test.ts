import { describe, expect, it } from 'vitest';
import type { Citation, ReplyContext } from '@shared/contract/documents';
import { sourcesLine } from '../../renderer/src/pages/chat/documents/sources-line';

const cite = (n: number, name: string): Citation => ({ n, chunk: n, document: 'd_abc', name, excerpt: 'x' });

describe("a reply's Sources line says what really reached the model", () => {
  it('passages found by words alone, while the vectors were not ready, are labelled so and never as retrieved', () => {
    const ctx: ReplyContext = { mode: 'retrieved', citations: [cite(1, 'handbook.md')], wordsOnly: ['handbook.md'] };
    expect(sourcesLine(ctx)).toBe(
      'Passages found by words alone were given to the model (search by meaning was not ready for handbook.md)',
    );
    expect(sourcesLine(ctx)).not.toContain('Retrieved');
  });

  it('a mix names the documents searched by words alone', () => {
    const ctx: ReplyContext = {
      mode: 'retrieved',
      citations: [cite(1, 'a.md'), cite(2, 'b.md')],
      wordsOnly: ['b.md', 'c.md'],
    };
    expect(sourcesLine(ctx)).toBe(
      'Retrieved passages were given to the model; those of b.md were found by words alone (search by meaning was not ready)',
    );
  });

  it('retrieved and whole as they were; no passage is never "given"', () => {
    expect(sourcesLine({ mode: 'retrieved', citations: [cite(1, 'a.md')] })).toBe(
      'Retrieved passages were given to the model',
    );
    expect(sourcesLine({ mode: 'whole', citations: [cite(1, 'a.md')] })).toBe(
      'Whole documents were given to the model',
    );
    const none = sourcesLine({ mode: 'retrieved', citations: [], notIndexed: ['a.md'] });
    expect(none).toBe('No passage matched this question closely enough, so none was given to the model');
  });
});
