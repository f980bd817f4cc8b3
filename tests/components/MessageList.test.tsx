// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { MessageList } from '../../renderer/src/pages/chat/MessageList';

/**
 * jsdom has no layout, so the test plays the browser's frame: `frame()` is its ResizeObserver step (after layout,
 * before paint), where reading layout is free. A read anywhere else (in a render's commit, a layout effect, a ref)
 * is one the browser would have to answer by laying out synchronously what React has just changed.
 */
let phase: 'script' | 'layout' | 'scroll' = 'script';
const forced: string[] = [];
let contentHeight = 2000;
let rowSize = 300;
const observers = new Set<FakeRO>();
class FakeRO {
  targets = new Set<Element>();
  constructor(private cb: ResizeObserverCallback) {
    observers.add(this);
  }
  observe(el: Element) {
    this.targets.add(el);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {
    this.targets.clear();
    observers.delete(this);
  }
  deliver() {
    if (!this.targets.size) return;
    const entries = [...this.targets].map((target) => {
      const blockSize = target.classList.contains('msg-row') ? rowSize : contentHeight;
      return { target, borderBoxSize: [{ blockSize, inlineSize: 800 }] } as unknown as ResizeObserverEntry;
    });
    this.cb(entries, this as unknown as ResizeObserver);
  }
}
/** Elements scrolled since the last frame: the browser tells their listeners in the frame's scroll step. */
const scrolled = new Set<HTMLElement>();
/** One frame: the scroll events, then (after layout) every ResizeObserver with targets, as the browser runs them. */
function frame() {
  phase = 'scroll';
  act(() => {
    for (const el of scrolled) el.dispatchEvent(new Event('scroll'));
    scrolled.clear();
  });
  phase = 'layout';
  try {
    act(() => [...observers].forEach((o) => o.deliver()));
  } finally {
    phase = 'script';
  }
}

const tops = new WeakMap<Element, number>();
function spyLayout() {
  const read = (name: string, value: (el: HTMLElement) => number) => {
    vi.spyOn(HTMLElement.prototype, name as 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      if (phase === 'script') forced.push(`${name} of ${this.className || this.tagName}`);
      return value(this);
    });
  };
  read('clientHeight', () => 500);
  read('clientWidth', () => 800);
  read('scrollHeight', () => contentHeight);
  read('offsetHeight', () => 300);
  vi.spyOn(HTMLElement.prototype, 'scrollTop', 'get').mockImplementation(function (this: HTMLElement) {
    if (phase === 'script') forced.push(`scrollTop of ${this.className}`);
    return tops.get(this) ?? 0;
  });
  vi.spyOn(HTMLElement.prototype, 'scrollTop', 'set').mockImplementation(function (this: HTMLElement, v: number) {
    const top = Math.max(0, Math.min(v, contentHeight - 500));
    if (top !== (tops.get(this) ?? 0)) scrolled.add(this);
    tops.set(this, top);
  });
  HTMLElement.prototype.scrollTo = function (this: HTMLElement, o?: ScrollToOptions | number) {
    if (typeof o === 'object') this.scrollTop = o.top ?? 0;
  } as HTMLElement['scrollTo'];
}

const at = '2026-11-26T10:00:00.000Z';
const msg = (i: number, content = `Message ${i}`): ChatMessage => ({
  id: `m_${i}`,
  role: i % 2 ? 'assistant' : 'user',
  content,
  status: 'complete',
  createdAt: at,
});
const actions = {
  onCopy() {},
  onRegenerate() {},
  onSaveEdit() {},
  onSelectVersion() {},
  onToolAnswer: async () => {},
};

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', FakeRO);
  spyLayout();
  forced.length = 0;
  phase = 'script';
});
afterEach(() => {
  cleanup();
  observers.clear();
  scrolled.clear();
  contentHeight = 2000;
  rowSize = 300;
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the message list reads layout only after it is done', () => {
  it('a new message is scrolled to after layout, with no read in its commit', () => {
    const messages = [0, 1, 2, 3].map((i) => msg(i));
    const { rerender, getByTestId } = render(<MessageList messages={messages} busy={false} actions={actions} />);
    frame();
    frame(); // the scroll to the end is read back
    forced.length = 0;
    contentHeight = 2300;
    rerender(<MessageList messages={[...messages, msg(4)]} busy={false} actions={actions} />);
    expect(forced).toEqual([]);
    frame();
    expect(forced).toEqual([]);
    // Followed: the view is at the bottom once that frame is laid out.
    expect(getByTestId('message-list').scrollTop).toBe(contentHeight - 500);
  });

  it('a reply growing while the user reads further up reads no layout per render', () => {
    const messages = [0, 1, 2, 3].map((i) => msg(i));
    const { rerender, getByTestId } = render(<MessageList messages={messages} busy actions={actions} />);
    frame();
    const list = getByTestId('message-list');
    list.scrollTop = 100; // the user scrolls up
    frame();
    expect(getByTestId('jump-latest')).toBeTruthy();
    forced.length = 0;
    for (let f = 1; f <= 5; f++) {
      const grown = [...messages.slice(0, 3), { ...msg(3, 'Streaming '.repeat(f * 20)), status: 'streaming' as const }];
      rerender(<MessageList messages={grown} busy actions={actions} />);
      frame();
    }
    expect(forced).toEqual([]);
    // Not followed: the user's place is kept.
    expect(list.scrollTop).toBe(100);
  });

  it('Send from further up follows the new question and its reply: no "Latest" over them', () => {
    const messages = [0, 1, 2, 3].map((i) => msg(i));
    const { rerender, getByTestId, queryByTestId } = render(
      <MessageList messages={messages} busy={false} actions={actions} />,
    );
    frame();
    const list = getByTestId('message-list');
    list.scrollTop = 100;
    frame();
    expect(getByTestId('jump-latest')).toBeTruthy();
    // The question and the reply's first message arrive together (one batch of stream events).
    contentHeight = 2600;
    const sent = [...messages, msg(4, 'And one more'), { ...msg(5, ''), status: 'streaming' as const }];
    rerender(<MessageList messages={sent} busy actions={actions} />);
    frame();
    frame();
    expect(queryByTestId('jump-latest')).toBeNull();
    expect(list.scrollTop).toBe(contentHeight - 500);
  });

  it('a list that gets shorter while followed (a row measured below its estimate) keeps following', () => {
    const messages = [0, 1, 2, 3].map((i) => msg(i));
    const { getByTestId, queryByTestId } = render(<MessageList messages={messages} busy actions={actions} />);
    frame();
    frame();
    const list = getByTestId('message-list');
    expect(list.scrollTop).toBe(1500);
    // The rows are measured 100 px shorter: the list's total shrinks, and the browser clamps the position to the
    // shorter list; the reply grows again before that scroll event is dispatched, so it arrives 100 px up.
    rowSize = 275;
    frame();
    contentHeight = 1900;
    list.scrollTop = 1400;
    contentHeight = 2000;
    frame();
    // The clamp is not the reader moving up: no "Latest", and the view is at the bottom again.
    expect(queryByTestId('jump-latest')).toBeNull();
    expect(list.scrollTop).toBe(1500);
    // A real move up still stops following.
    list.scrollTop = 1300;
    frame();
    expect(getByTestId('jump-latest')).toBeTruthy();
    expect(list.scrollTop).toBe(1300);
  });
});
