import { describe, expect, it } from 'vitest';
import { finishedSentences, speakable } from '../../renderer/src/pages/chat/announce';

describe('what the streaming-reply live region says', () => {
  it('only sentences finished since the last announcement, and where it stopped', () => {
    const text = 'First one. Second one! Third is still being wri';
    const a = finishedSentences(text, 0);
    expect(a.say).toBe('First one. Second one!');
    expect(text.slice(a.to)).toBe(' Third is still being wri');
    // Nothing new has finished: nothing is said, the position stays.
    expect(finishedSentences(text, a.to)).toEqual({ say: '', to: a.to });
    const more = `${text}tten. Fourth`;
    expect(finishedSentences(more, a.to).say).toBe('Third is still being written.');
  });

  it('a paragraph break ends a sentence; a full stop inside a number or name does not', () => {
    expect(finishedSentences('Version 3.2 of llama3.2 is out\n\nNext', 0).say).toBe('Version 3.2 of llama3.2 is out');
    expect(finishedSentences('Costs 1.5 dollars', 0).say).toBe('');
  });

  it('a code block is named, not read, and an open one waits until it is closed', () => {
    const open = 'Here is code: ```js\nconst a = 1; const b = 2;\n';
    expect(finishedSentences(open, 0).say).toBe('Here is code:');
    const closed = `${open}\`\`\`\n\nThat was it. `;
    expect(finishedSentences(closed, 0).say).toBe('Here is code: (code block) That was it.');
  });

  it('drops Markdown marks and keeps link text', () => {
    expect(speakable('# Title\n\n**Bold** and _em_ with `code` and [a link](https://x.y).')).toBe(
      'Title Bold and em with code and a link.',
    );
  });
});
