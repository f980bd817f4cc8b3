import { Lexer, type Token } from 'marked';
import { openFence, StreamingCode } from './code-stream';
import { isTable, StreamingTable } from './table-stream';
import { healTail } from './heal';
import { renderBlock } from './render';
import { splitBlocks, type Split } from './blocks';
import { afterPaint, whenIdle } from '../after-paint';
import { showLoadedImages } from './held-images';

/** Markdown to sanitized HTML in one go, through the same per-block cache the streaming view fills. */
export function renderMarkdown(text: string): string {
  return splitBlocks(text.replace(/\r\n?/g, '\n'))
    .blocks.map((b) => renderBlock(b.raw, false, b.tokens))
    .join('');
}

/** A finished message larger than this (in characters) opens from its end: what is on screen first. */
const COLD_OPEN_FIRST = 12_000;
/** Work per task while the rest of a cold open is filled in. */
const FILL_BUDGET_MS = 8;

/** Characters on a line of a message and a line's height (the chat's 14px/1.5 text, a ~860px column). */
const LINE_CHARS = 110;
const LINE_PX = 21;

/**
 * A block's height before it is laid out, from its source: a line per source line (more for long ones), and a code
 * block's frame. A block not filled in yet (a cold open's) takes this height, so a long message has about its real
 * height at once, and filling a block in away from the view moves little.
 */
function estimatePx(raw: string): number {
  let lines = 0;
  for (const line of raw.trimEnd().split('\n')) lines += Math.max(1, Math.ceil(line.length / LINE_CHARS));
  return lines * LINE_PX + (/^ {0,3}(`{3,}|~{3,})/.test(raw) ? 40 : 10);
}

/**
 * Keeps an element showing a growing Markdown text. Each top-level block has its own wrapper (`.md-block`), rendered
 * once and left alone while later text arrives; only blocks whose source changed are rendered again —
 * normally just the last. While streaming, the last block is healed for display; when the text is final, nothing is
 * rebuilt unless the healed tail differs from the real one.
 *
 * With `progressive`, a long finished message shown from nothing (a conversation opened) renders its last blocks at
 * once — the end is what a chat shows first — and the earlier ones in short tasks after each paint, bottom up. A
 * block not filled in yet keeps its estimated height, so filling it in does not move what is in view.
 */
export class IncrementalMarkdown {
  private split?: Split;
  /** What each wrapper shows: the block's source as rendered (healed for an open tail). */
  private shown: (string | undefined)[] = [];
  private readonly els: HTMLElement[] = [];
  private tail?: HTMLElement;
  private fill?: { cancelled: boolean };
  /** The open tail's code block or table while it streams, a part at a time, by wrapper. */
  private readonly live = new WeakMap<HTMLElement, StreamingCode | StreamingTable>();
  private filled: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: HTMLElement,
    private readonly opts: { progressive?: boolean } = {},
  ) {
    root.replaceChildren();
  }

  /** Settles when every block is on screen (at once, unless a progressive cold open is still filling in). */
  whenComplete(): Promise<void> {
    return this.filled;
  }

  update(rawText: string, final: boolean): void {
    const text = rawText.replace(/\r\n?/g, '\n');
    if (this.fill) this.fill.cancelled = true;
    this.fill = undefined;
    this.split = splitBlocks(text, this.split);
    const blocks = this.split.blocks;
    const cold = this.opts.progressive && final && this.els.length === 0 && text.length > COLD_OPEN_FIRST;
    // On a cold open, blocks before `from` get empty wrappers now and their content after the first paint.
    let from = 0;
    if (cold) {
      let size = 0;
      from = blocks.length;
      while (from > 0 && size < COLD_OPEN_FIRST) size += blocks[--from].raw.length;
    }
    for (let i = 0; i < blocks.length; i++) {
      if (i < from) {
        if (this.shown[i] === undefined) this.wrapper(i).style.minHeight = `${estimatePx(blocks[i].raw)}px`;
        continue;
      }
      const open = !final && i === blocks.length - 1;
      this.show(i, open ? healTail(blocks[i].raw) : blocks[i].raw, open);
    }
    while (this.els.length > blocks.length) {
      this.els.pop()!.remove();
      this.shown.pop();
    }
    // The open tail's wrapper is marked (the caret follows it): a class on one block, so the end of a long reply
    // restyles that block, not the whole message as a class on the root would.
    const tail = final ? undefined : this.els[blocks.length - 1];
    if (tail !== this.tail) {
      this.tail?.classList.remove('md-tail');
      tail?.classList.add('md-tail');
      this.tail = tail;
    }
    this.filled = from > 0 ? this.fillIn(from) : Promise.resolve();
  }

  private wrapper(i: number): HTMLElement {
    let el = this.els[i];
    if (!el) {
      el = document.createElement('div');
      el.className = 'md-block';
      this.root.append(el);
      this.els.push(el);
    }
    return el;
  }

  private show(i: number, source: string, transient: boolean): void {
    const block = this.split!.blocks[i];
    // The splitter's tokens are used once (marked's renderer may change them) and not kept with the message.
    const lexed = block.tokens;
    const tokens = source === block.raw ? lexed : undefined;
    block.tokens = undefined;
    if (this.shown[i] === source) return;
    const el = this.wrapper(i);
    if (transient && (this.showCode(el, source, tokens) || this.showTable(el, source, lexed))) {
      this.shown[i] = source;
      return;
    }
    // A code block or table that streamed in is finished by adding its last lines or row: its earlier parts are
    // neither rendered nor laid out again.
    const streamed = this.live.get(el);
    this.live.delete(el);
    this.shown[i] = source;
    if (streamed?.finish(source)) return this.checkWhenIdle(i, source, streamed.html);
    const html = renderBlock(source, transient, tokens);
    el.innerHTML = html;
    showLoadedImages(el, html);
    el.style.minHeight = '';
  }

  /**
   * A streamed block stays as it streamed if rendering it whole gives the same markup, as it does unless a language's
   * highlighting reads across the lines where it was cut. That render (milliseconds of highlighting for a long code
   * block) waits for an idle moment instead of lengthening the frame that finished the block; it also fills the cache
   * for the message's next render.
   */
  private checkWhenIdle(i: number, source: string, streamed: string): void {
    const el = this.els[i];
    whenIdle(() => {
      if (this.els[i] !== el || this.shown[i] !== source) return;
      const html = renderBlock(source);
      if (html === streamed) return;
      el.innerHTML = html;
      showLoadedImages(el, html);
    });
  }

  /** Shows an open tail that is one fenced code block through `StreamingCode`; false for any other block. */
  private showCode(el: HTMLElement, source: string, tokens?: Token[]): boolean {
    if (!/^(`{3,}|~{3,})/.test(source)) return false;
    const fence = openFence(tokens ?? Lexer.lex(source, { gfm: true }));
    if (!fence) return false;
    let view = this.live.get(el);
    if (!(view instanceof StreamingCode) || view.lang !== fence.lang || !view.update(fence.text)) {
      view = new StreamingCode(el, fence.lang);
      view.update(fence.text);
      this.live.set(el, view);
      el.style.minHeight = '';
    }
    return true;
  }

  /**
   * Shows an open tail that is one table through `StreamingTable`; false for any other block. `lexed`: the tail's
   * unhealed source as the splitter lexed it (healing does not make a table of what is not one, past its header).
   */
  private showTable(el: HTMLElement, source: string, lexed?: Token[]): boolean {
    const view = this.live.get(el);
    if (view instanceof StreamingTable && view.update(source)) return true;
    if (!isTable(lexed ?? Lexer.lex(source, { gfm: true }))) return false;
    const fresh = StreamingTable.start(el, source);
    if (!fresh) return false;
    this.live.set(el, fresh);
    el.style.minHeight = '';
    return true;
  }

  /** Renders blocks `from - 1` down to 0, a budget's worth per task, each task after a paint. */
  private fillIn(from: number): Promise<void> {
    const job = { cancelled: false };
    this.fill = job;
    const blocks = this.split!.blocks;
    let next = from - 1;
    return new Promise<void>((done) => {
      const step = () => {
        if (job.cancelled) return done();
        const t0 = performance.now();
        while (next >= 0 && performance.now() - t0 < FILL_BUDGET_MS) {
          this.show(next, blocks[next].raw, false);
          next--;
        }
        if (next >= 0) afterPaint(step);
        else {
          if (this.fill === job) this.fill = undefined;
          done();
        }
      };
      afterPaint(step);
    });
  }
}
