import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { elementScroll, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { AppErrorShape } from '@shared/errors';
import { afterLayout } from '../../lib/after-paint';
import type { PageDir } from '../../store/chat';
import { copyText } from './clipboard';
import { Message, type MessageActions } from './Message';

/** Within this distance of the bottom, the list follows new text; scrolling further up stops it. */
const STICK_PX = 48;
/** Within this distance of the top (bottom), earlier (later) messages are loaded before the user gets there. */
const PAGE_PX = 600;

/** A row's first guess, until its ResizeObserver entry says (estimates are corrected as rows are measured). */
const ESTIMATE_PX = 96;

/**
 * A row's height, from its ResizeObserver entry: reported after layout, so reading it forces none. A row just
 * mounted keeps its last (or estimated) height until its first entry, later in the same frame before paint, where
 * the virtualizer's default (offsetHeight) would lay out the page React has just changed, mid-commit.
 */
function rowHeight(el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLDivElement, Element>) {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  if (entry) return (el as HTMLElement).offsetHeight; // no borderBoxSize (old engines): still after layout
  const i = v.indexFromElement(el);
  return v.itemSizeCache.get(v.options.getItemKey(i)) ?? ESTIMATE_PX;
}

/** A window of a long conversation: earlier messages load near the top, later ones (if any) near the bottom. */
export interface Paging {
  hasOlder: boolean;
  hasNewer: boolean;
  dir?: PageDir;
  loading: boolean;
  error?: AppErrorShape;
  load(dir: PageDir): void;
  /** Shows the end of the conversation (the window was opened further back, at a search hit). */
  latest(): void;
}

function PageStatus({ paging }: { paging: Paging }) {
  const where = paging.dir === 'newer' ? 'Later' : 'Earlier';
  return (
    <div className={`msg-page msg-page-${paging.dir}`}>
      {paging.loading ? (
        <p className="msg-page-note" role="status" data-testid="page-loading">
          Loading {where.toLowerCase()} messages…
        </p>
      ) : (
        <p className="msg-page-note msg-page-error" role="alert" data-testid="page-error">
          {where} messages could not be loaded: {paging.error?.message}{' '}
          <button className="btn btn-ghost" onClick={() => paging.load(paging.dir!)}>
            Retry
          </button>
        </p>
      )}
    </div>
  );
}

/**
 * The conversation, virtualized: only the rows in view exist in the DOM. It follows a streaming reply
 * until the user scrolls up, and offers a button to jump back. Near the top it loads earlier messages and
 * keeps what the user was reading in place.
 */
export function MessageList({
  messages,
  versions,
  focusId,
  busy,
  actions,
  paging,
}: {
  messages: ChatMessage[];
  versions?: Record<string, string[]>;
  /** A message to bring into view (a search hit): scrolled to and outlined. */
  focusId?: string;
  busy: boolean;
  actions: MessageActions;
  paging?: Paging;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const windowRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** Where the list was last put, by the reader or by following: a scroll event above it is the reader moving up. */
  const lastTop = useRef(0);
  /**
   * How much shorter the list has become since the last scroll event (a row measured smaller than its estimate): a
   * move up it explains is the browser clamping the position to the shorter list, not the reader.
   */
  const shrunk = useRef(0);
  const [away, setAway] = useState(false);
  // Called after layout (a ResizeObserver step) or on a click: reading the position then forces none.
  const toBottom = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  }, []);

  // Read by the scroll listener, which is set up once.
  const pagingRef = useRef(paging);
  pagingRef.current = paging;
  const loadIfNearEdge = useCallback(() => {
    const el = scrollRef.current;
    const p = pagingRef.current;
    // Not after a failure: the error is shown with a Retry button instead of retrying on every scroll.
    if (!el || !p || p.loading || p.error) return;
    if (p.hasOlder && el.scrollTop < PAGE_PX) p.load('older');
    else if (p.hasNewer && el.scrollHeight - el.scrollTop - el.clientHeight < PAGE_PX) p.load('newer');
  }, []);

  // Set up before the virtualizer (a layout effect declared ahead of it), so on each scroll event this listener reads
  // the position first, while layout is clean: the virtualizer's own listener may re-render rows synchronously.
  useLayoutEffect(() => {
    const el = scrollRef.current!;
    const onScroll = () => {
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
      // The bottom of a window that stops short of the end is not the end: nothing to follow there.
      const atEnd = atBottom && !pagingRef.current?.hasNewer;
      // Only a move up stops following: a scroll event is dispatched a frame late, when a streaming reply may have
      // grown past the bottom before the list caught up, which is not the reader leaving.
      const up = lastTop.current - el.scrollTop;
      const clamped = up <= shrunk.current + 1;
      shrunk.current = 0;
      if (atEnd) stick.current = true;
      else if (up > 0 && !clamped) stick.current = false;
      lastTop.current = el.scrollTop;
      setAway(!stick.current);
      if (!atEnd) loadIfNearEdge();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [loadIfNearEdge]);

  const v = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATE_PX,
    measureElement: rowHeight,
    overscan: 6,
    getItemKey: (i) => messages[i].id,
    // Its own scrolling (to the last row, whose end it may still place above a reply that has grown since) is not
    // the reader moving up.
    scrollToFn: (offset, options, instance) => {
      elementScroll(offset, options, instance);
      lastTop.current = Math.min(lastTop.current, offset);
    },
  });

  useEffect(() => {
    // Rows grow as they are measured and as a reply streams (the window, at once; the inner box once the virtualizer
    // has measured the row): keep the bottom in view while following. Called after layout, so reading the height
    // forces none.
    const ro = new ResizeObserver(() => {
      if (stick.current) toBottom();
    });
    ro.observe(innerRef.current!);
    ro.observe(windowRef.current!);
    return () => ro.disconnect();
  }, [toBottom]);

  const total = v.getTotalSize();
  const lastTotal = useRef(total);
  useLayoutEffect(() => {
    if (total < lastTotal.current) shrunk.current += lastTotal.current - total;
    lastTotal.current = total;
  }, [total]);

  // Earlier messages were put in front: move down by what they added, so the rows in view stay where they were
  // (rows not measured yet count at their estimate; the virtualizer corrects for them as they are measured).
  // The height is the virtualizer's total (the inner box's), not the element's: a streaming reply re-renders the list
  // each frame, and reading scrollHeight here would force a layout on every one while the user reads further up.
  const firstId = messages[0]?.id;
  const prev = useRef({ firstId, height: NaN });
  useLayoutEffect(() => {
    if (stick.current) {
      prev.current = { firstId, height: NaN };
      return;
    }
    const height = total;
    if (prev.current.firstId && firstId !== prev.current.firstId && !Number.isNaN(prev.current.height)) {
      const at = messages.findIndex((m) => m.id === prev.current.firstId);
      if (at > 0) scrollRef.current!.scrollTop += height - prev.current.height;
    }
    prev.current = { firstId, height };
  });
  // Still near an edge once they are in (a short window, or a fast scroll): load the next page.
  const lastId = messages.at(-1)?.id;
  useEffect(() => {
    if (!stick.current) loadIfNearEdge();
  }, [firstId, lastId, paging?.loading, loadIfNearEdge]);

  // A new message (sent, or a reply starting), or the end of the conversation shown again, brings the view down
  // if it was following: once that frame is laid out (before it is painted), as scrolling reads the height.
  const last = messages.at(-1);
  const count = messages.length;
  // What one has just sent is followed even from further up: a user message among those added after the last one
  // (a page of later messages also adds some, but only to a window that did not reach the end).
  // Declared ahead of the effect below, which then brings the view down.
  const hasNewer = !!paging?.hasNewer;
  const seen = useRef({ last: last?.id, hasNewer });
  useLayoutEffect(() => {
    const before = seen.current;
    seen.current = { last: messages.at(-1)?.id, hasNewer };
    if (before.last === seen.current.last || before.hasNewer || stick.current) return;
    const from = messages.findIndex((m) => m.id === before.last);
    if (from < 0 || !messages.slice(from + 1).some((m) => m.role === 'user')) return;
    stick.current = true;
    setAway(false);
  }, [messages, hasNewer]);
  useLayoutEffect(() => {
    if (!stick.current || !count) return;
    return afterLayout(() => {
      if (!stick.current) return;
      v.scrollToIndex(count - 1, { align: 'end' });
    });
  }, [count, last?.id, v]);

  // A search hit: stop following the bottom and centre the message (once: paging in earlier messages moves its
  // index, not what the user is reading).
  const focusIndex = focusId ? messages.findIndex((m) => m.id === focusId) : -1;
  const focused = useRef<string>(undefined);
  useLayoutEffect(() => {
    if (focusIndex < 0 || focused.current === focusId) return;
    focused.current = focusId;
    stick.current = false;
    v.scrollToIndex(focusIndex, { align: 'center' });
  }, [focusIndex, focusId, v]);

  const onClick = async (e: React.MouseEvent) => {
    const btn = (e.target as HTMLElement).closest('[data-copy-code]');
    if (!btn) return;
    const code = btn.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    const ok = await copyText(code);
    if (ok === false) btn.textContent = 'Copy failed';
    else if (ok) {
      btn.textContent = 'Copied';
      setTimeout(() => (btn.textContent = 'Copy'), 1500);
    }
  };

  const items = v.getVirtualItems();
  return (
    <div className="msg-scroll" ref={scrollRef} onClick={(e) => void onClick(e)} data-testid="message-list">
      {paging?.dir === 'older' && (paging.loading || paging.error) && <PageStatus paging={paging} />}
      <div className="msg-inner" ref={innerRef} style={{ height: total }}>
        <div className="msg-window" ref={windowRef} style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((it) => (
            <div
              key={it.key}
              data-index={it.index}
              ref={v.measureElement}
              className={`msg-row${it.index === focusIndex ? ' msg-focus' : ''}`}
            >
              <Message
                m={messages[it.index]}
                versions={versions?.[messages[it.index].id]}
                isLast={it.index === messages.length - 1 && !paging?.hasNewer}
                busy={busy}
                actions={actions}
              />
            </div>
          ))}
        </div>
      </div>
      {paging?.dir === 'newer' && (paging.loading || paging.error) && <PageStatus paging={paging} />}
      {away && (
        <div className="jump-latest-dock">
          <button
            className="btn jump-latest"
            data-testid="jump-latest"
            onClick={() => {
              stick.current = true;
              if (paging?.hasNewer) paging.latest();
              else toBottom();
            }}
          >
            ↓ Latest
          </button>
        </div>
      )}
    </div>
  );
}
