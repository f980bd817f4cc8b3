// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { IncrementalMarkdown } from '../../renderer/src/lib/markdown/incremental';
import { MARKDOWN_MARKERS, markdownStream } from '../fixtures/markdown-stream';

/**
 * Every prefix of a Markdown-heavy reply, as the chat shows it while streaming (IncrementalMarkdown with the open
 * tail healed): none may show a marker the finished reply does not (a raw `**`, a half link, a table row of pipes).
 */
describe('streaming Markdown never shows half-finished syntax', () => {
  for (const seed of [1, 2, 7]) {
    it(`every prefix of reply ${seed} renders without raw markers`, () => {
      const { chunks } = markdownStream(1_000, seed);
      const root = document.createElement('div');
      const view = new IncrementalMarkdown(root);
      let text = '';
      const bad: string[] = [];
      for (const c of chunks) {
        text += c;
        view.update(text, false);
        const shown = root.textContent ?? '';
        const raw = MARKDOWN_MARKERS.filter((m) => shown.includes(m));
        if (raw.length) bad.push(`${raw.join(' ')} after …${JSON.stringify(text.slice(-40))}`);
      }
      view.update(text, true);
      expect(MARKDOWN_MARKERS.filter((m) => (root.textContent ?? '').includes(m))).toEqual([]);
      expect(bad.slice(0, 8)).toEqual([]);
    }, 60_000);
  }
});
