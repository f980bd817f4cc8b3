import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ChatMessage } from '@shared/contract/chat';
import { liveText } from '../../store/chat';
import { Message, type MessageActions } from './Message';

/** Within this distance of the bottom, the list follows new text; scrolling further up stops it. */
const STICK_PX = 48;

/**
 * The conversation, virtualized: only the rows in view exist in the DOM. It follows a streaming reply
 * until the user scrolls up, and offers a button to jump back.
 */
export function MessageList({
  messages,
  versions,
  focusId,
  busy,
  actions,
}: {
  messages: ChatMessage[];
  versions?: Record<string, string[]>;
  /** A message to bring into view (a search hit): scrolled to and outlined. */
  focusId?: string;
  busy: boolean;
  actions: MessageActions;
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

  useEffect(() => {
    const el = scrollRef.current!;
    const onScroll = () => {
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
      stick.current = atBottom;
      setAway(!atBottom);
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
  }, [toBottom]);

  // A new message (sent, or a reply starting) brings the view down if it was following.
  const last = messages.at(-1);
  useLayoutEffect(() => {
    if (stick.current && messages.length) v.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, v]);

  // A search hit: stop following the bottom and centre the message.
  const focusIndex = focusId ? messages.findIndex((m) => m.id === focusId) : -1;
  useLayoutEffect(() => {
    if (focusIndex < 0) return;
    stick.current = false;
    v.scrollToIndex(focusIndex, { align: 'center' });
  }, [focusIndex, v]);

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
