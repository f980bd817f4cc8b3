import { describe, expect, it } from 'vitest';
import { StopSequences } from '../../electron/main/services/local/server/anthropic/stop-sequences';

/** The pieces through the matcher: what is sent, and which sequence stopped it. */
function run(sequences: string[], pieces: string[]) {
  const s = new StopSequences(sequences);
  let sent = '';
  for (const p of pieces) sent += s.push(p);
  sent += s.flush();
  return { sent, matched: s.matched };
}

describe("the local server's Anthropic stop sequences", () => {
  it('passes text through untouched without sequences', () => {
    expect(run([], ['Hello', ' world'])).toEqual({ sent: 'Hello world', matched: undefined });
  });

  it('sends the text before the first sequence, neither the sequence nor anything after it', () => {
    expect(run(['END'], ['one ', 'two END three'])).toEqual({ sent: 'one two ', matched: 'END' });
    expect(run(['b', 'a'], ['xxab'])).toEqual({ sent: 'xx', matched: 'a' });
  });

  it('holds back text that may begin a sequence until the next piece settles it', () => {
    const s = new StopSequences(['</answer>']);
    expect(s.push('done </ans')).toBe('done ');
    expect(s.push('wer> more')).toBe('');
    expect(s.matched).toBe('</answer>');
    const t = new StopSequences(['</answer>']);
    expect(t.push('a </an')).toBe('a ');
    expect(t.push('d b')).toBe('</and b');
    expect(t.matched).toBeUndefined();
  });

  it('sends what was held back when the reply ends without a sequence', () => {
    expect(run(['STOP'], ['go ST'])).toEqual({ sent: 'go ST', matched: undefined });
  });

  it('matches a sequence split over many one-character pieces', () => {
    expect(run(['\n\nHuman:'], [...'Hi.\n\nHuman: next'])).toEqual({ sent: 'Hi.', matched: '\n\nHuman:' });
  });
});
