import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ChatMessage } from '@shared/contract/chat';
import type { AppErrorShape } from '@shared/errors';
import { liveText } from '../../store/chat';
import { Message, type MessageActions } from './Message';

/** Within this distance of the bottom, the list follows new text; scrolling further up stops it. */
const STICK_PX = 48;
/** Within this distance of the top, earlier messages are loaded (before the user reaches the first one). */
const OLDER_PX = 600;

/** Earlier messages of a long conversation: loaded when the list nears its top. */
export interface OlderMessages {
  hasOlder: boolean;
  loading: boolean;
  error?: AppErrorShape;
  load(): void;
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
  older,
}: {
  messages: ChatMessage[];
  versions?: Record<string, string[]>;
  /** A message to bring into view (a search hit): scrolled to and outlined. */
  focusId?: string;
  busy: boolean;
  actions: MessageActions;
  older?: OlderMessages;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [away, setAway] = useState(false);
  const v = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (i) => messages[i].id,
  });

  const toBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // Read by the scroll listener, which is set up once.
  const olderRef = useRef(older);
  olderRef.current = older;
  const loadIfNearTop = useCallback(() => {
    const el = scrollRef.current;
    const o = olderRef.current;
    // Not after a failure: the error is shown with a Retry button instead of retrying on every scroll.
    if (el && o?.hasOlder && !o.loading && !o.error && el.scrollTop < OLDER_PX) o.load();
  }, []);

  useEffect(() => {
    const el = scrollRef.current!;
    const onScroll = () => {
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
      stick.current = atBottom;
      setAway(!atBottom);
      if (!atBottom) loadIfNearTop();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    // Rows grow as they are measured and as a reply streams: keep the bottom in view while following.
    const ro = new ResizeObserver(() => {
      if (stick.current) toBottom();
    });
    ro.observe(innerRef.current!);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro.disconnect();
    };
  }, [toBottom, loadIfNearTop]);

  // Earlier messages were put in front: move down by what they added, so the rows in view stay where they were
  // (rows not measured yet count at their estimate; the virtualizer corrects for them as they are measured).
  const firstId = messages[0]?.id;
  const prev = useRef({ firstId, height: 0 });
  useLayoutEffect(() => {
    const el = scrollRef.current!;
    if (prev.current.firstId && firstId !== prev.current.firstId && !stick.current) {
      const at = messages.findIndex((m) => m.id === prev.current.firstId);
      if (at > 0) el.scrollTop += el.scrollHeight - prev.current.height;
    }
    prev.current = { firstId, height: el.scrollHeight };
  });
  // Still near the top once they are in (a short window, or a fast scroll): load the next page.
  useEffect(() => {
    if (!stick.current) loadIfNearTop();
  }, [firstId, older?.loading, loadIfNearTop]);

  // A new message (sent, or a reply starting) brings the view down if it was following.
  const last = messages.at(-1);
  useLayoutEffect(() => {
    if (stick.current && messages.length) v.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, v]);

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

  // While a reply streams, follow its growth.
  useEffect(() => {
    if (last?.status !== 'streaming') return;
    return liveText(last.id).subscribe(() => {
      if (stick.current) requestAnimationFrame(toBottom);
    });
  }, [last?.id, last?.status, toBottom]);

  const onClick = (e: React.MouseEvent) => {
    const btn = (e.target as HTMLElement).closest('[data-copy-code]');
    if (!btn) return;
    const code = btn.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard
      ?.writeText(code)
      .then(() => {
        btn.textContent = 'Copied';
        setTimeout(() => (btn.textContent = 'Copy'), 1500);
      })
      .catch(() => (btn.textContent = 'Copy failed'));
  };

  const items = v.getVirtualItems();
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  return (
    <div className="msg-scroll" ref={scrollRef} onClick={onClick} data-testid="message-list">
      {older && (older.loading || older.error) && (
        <div className="msg-older">
          {older.loading ? (
            <p className="msg-older-note" role="status" data-testid="older-loading">
              Loading earlier messages…
            </p>
          ) : (
            <p className="msg-older-note msg-older-error" role="alert" data-testid="older-error">
              Earlier messages could not be loaded: {older.error!.message}{' '}
              <button className="btn btn-ghost" onClick={older.load}>
                Retry
              </button>
            </p>
          )}
        </div>
      )}
      <div className="msg-inner" ref={innerRef} style={{ height: v.getTotalSize() }}>
        <div className="msg-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
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
                isLast={it.index === lastAssistant && it.index >= messages.length - 1}
                busy={busy}
                actions={actions}
              />
            </div>
          ))}
        </div>
      </div>
      {away && (
        <button
          className="btn jump-latest"
          onClick={() => {
            stick.current = true;
            toBottom();
          }}
        >
          ↓ Latest
        </button>
      )}
    </div>
  );
}
