import { healTail } from './heal';
import { renderBlock } from './render';
import { splitBlocks, type Split } from './blocks';

/** Markdown to sanitized HTML in one go, through the same per-block cache the streaming view fills. */
export function renderMarkdown(text: string): string {
  return splitBlocks(text.replace(/\r\n?/g, '\n'))
    .blocks.map((b) => renderBlock(b.raw))
    .join('');
}

/**
 * Keeps an element showing a growing Markdown text. Each top-level block has its own wrapper (`display: contents`),
 * rendered once and left alone while later text arrives; only blocks whose source changed are rendered again —
 * normally just the last. While streaming, the last block is healed for display; when the text is final, nothing is
 * rebuilt unless the healed tail differs from the real one.
 */
export class IncrementalMarkdown {
  private split?: Split;
  /** What each wrapper shows: the block's source as rendered (healed for an open tail). */
  private shown: string[] = [];
  private readonly els: HTMLElement[] = [];

  constructor(private readonly root: HTMLElement) {
    root.replaceChildren();
  }

  update(rawText: string, final: boolean): void {
    const text = rawText.replace(/\r\n?/g, '\n');
    this.split = splitBlocks(text, this.split);
    const blocks = this.split.blocks;
    for (let i = 0; i < blocks.length; i++) {
      const open = !final && i === blocks.length - 1;
      const source = open ? healTail(blocks[i].raw) : blocks[i].raw;
      if (this.shown[i] === source) continue;
      let el = this.els[i];
      if (!el) {
        el = document.createElement('div');
        el.className = 'md-block';
        this.root.append(el);
        this.els.push(el);
      }
      el.innerHTML = renderBlock(source, open);
      this.shown[i] = source;
    }
    while (this.els.length > blocks.length) {
      this.els.pop()!.remove();
      this.shown.pop();
    }
  }
}
