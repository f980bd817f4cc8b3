import hljs from 'highlight.js/lib/common';
import { Lexer, type Token, type Tokens } from 'marked';
import { codeBlockParts, highlightCode } from './render';

/** Lines a streaming code block's live tail gathers before they are highlighted once and frozen. */
const SEGMENT_LINES = 2;

/** The code block an open tail is, when its tokens are one fenced block (and blank lines): its text and language. */
export function openFence(tokens: Token[]): { text: string; lang: string } | null {
  const code = tokens.filter((t) => t.type !== 'space');
  if (code.length !== 1 || code[0].type !== 'code') return null;
  const t = code[0] as Tokens.Code;
  return t.codeBlockStyle === 'indented' ? null : { text: t.text, lang: t.lang ?? '' };
}

/** `text` highlighted, if highlighting ends outside any string, comment or other multi-line construct; else null. */
function atTop(text: string, lang: string): string | null {
  const language = lang.trim().split(/\s+/)[0];
  if (!language || !hljs.getLanguage(language)) return highlightCode(text, lang);
  try {
    const r = hljs.highlight(text, { language, ignoreIllegals: true }) as {
      value: string;
      _top?: { parent?: unknown };
    };
    return r._top?.parent ? null : r.value;
  } catch {
    return null;
  }
}

/**
 * A code block while it streams. Its lines are highlighted a segment at a time: a segment is frozen (highlighted
 * once, never touched again) where highlighting ends at the language's top level, so only the lines after the last
 * frozen segment are highlighted and replaced each frame. Each segment is a block of its own (`.code-seg`, a block
 * in chat.css), so a frame lays out and paints the live segment, not the whole block: one run of text, a 300-line
 * block cost tens of milliseconds a frame. Unwrapped, the segments are the markup highlighting the whole block at
 * once gives (`html`), so the finished block replaces nothing when it matches; it looks and copies the same.
 */
export class StreamingCode {
  private frozenText = '';
  private frozenHtml = '';
  private tailHtml = '';
  private tried = 0;
  private readonly code: HTMLElement;
  /** The live segment's element: the lines after the last frozen segment. */
  private live?: HTMLElement;

  constructor(
    el: HTMLElement,
    readonly lang: string,
  ) {
    const [head, foot] = codeBlockParts(lang);
    el.innerHTML = head + foot;
    this.code = el.querySelector('code')!;
  }

  /** The block's markup as the DOM holds it, its segments unwrapped. */
  get html(): string {
    const [head, foot] = codeBlockParts(this.lang);
    return head + this.frozenHtml + this.tailHtml + foot;
  }

  /** Ends the stream with the finished block's source: false when it is not this code block grown. */
  finish(source: string): boolean {
    const fence = openFence(Lexer.lex(source, { gfm: true }));
    return !!fence && fence.lang === this.lang && this.update(fence.text);
  }

  /** Shows `text`; false when it is not a continuation of what is shown (the caller renders the block afresh). */
  update(text: string): boolean {
    if (!text.startsWith(this.frozenText)) return false;
    let tail = text.slice(this.frozenText.length);
    const complete = tail.lastIndexOf('\n') + 1;
    const lines = tail.slice(0, complete).split('\n').length - 1;
    if (lines >= SEGMENT_LINES && lines >= this.tried + SEGMENT_LINES) {
      const seg = tail.slice(0, complete);
      const html = atTop(seg, this.lang);
      if (html !== null) {
        this.append(html);
        this.frozenText += seg;
        tail = tail.slice(complete);
        this.tried = 0;
      } else this.tried = lines; // inside a string or comment: try again a segment later
    }
    const html = tail ? highlightCode(tail, this.lang) : '';
    if (html === this.tailHtml) return true;
    this.tailHtml = html;
    if (html) {
      this.live ??= this.code.appendChild(segment());
      this.live.innerHTML = html;
    } else {
      this.live?.remove();
      this.live = undefined;
    }
    return true;
  }

  private append(html: string): void {
    const seg = segment();
    seg.innerHTML = html;
    this.code.insertBefore(seg, this.live ?? null);
    this.frozenHtml += html;
  }
}

/** A segment's element. */
function segment(): HTMLElement {
  const el = document.createElement('span');
  el.className = 'code-seg';
  return el;
}
