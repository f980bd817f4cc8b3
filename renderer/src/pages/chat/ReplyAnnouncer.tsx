import { useEffect, useState } from 'react';
import { liveText, useChat } from '../../store/chat';
import { ANNOUNCE_EVERY_MS, finishedSentences, speakable } from './announce';

/**
 * The screen-reader voice of a streaming reply: one polite live region that says, at most every 1.5 s, only the
 * sentences finished since it last spoke, then "Reply complete" (or stopped / failed). The message itself is not
 * a live region, so it is never re-read whole.
 */
export function ReplyAnnouncer({ convId }: { convId: string }) {
  const said = useReplyAnnouncer(convId);
  return (
    <div className="sr-only" aria-live="polite" data-testid="reply-announcer">
      {said}
    </div>
  );
}

const endings: Record<string, string> = {
  complete: 'Reply complete.',
  stopped: 'Reply stopped.',
  error: 'Reply failed.',
};

function useReplyAnnouncer(convId: string): string {
  const streamingId = useChat(
    (s) => s.convs[convId]?.messages.find((m) => m.role === 'assistant' && m.status === 'streaming')?.id,
  );
  const [said, setSaid] = useState('');

  useEffect(() => {
    if (!streamingId) return;
    const text = liveText(streamingId);
    let spoken = 0;
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const speak = () => {
      timer = undefined;
      const { say, to } = finishedSentences(text.content, spoken);
      if (!say) return;
      spoken = to;
      last = performance.now();
      setSaid(say);
    };
    const onText = () => {
      if (!timer) timer = setTimeout(speak, Math.max(0, last + ANNOUNCE_EVERY_MS - performance.now()));
    };
    const unsubscribe = text.subscribe(onText);
    onText();
    return () => {
      unsubscribe();
      clearTimeout(timer);
      // The reply ended: what was not said yet, then how it ended (after the same pause as any other update).
      const msg = useChat.getState().convs[convId]?.messages.find((m) => m.id === streamingId);
      if (!msg || msg.status === 'streaming') return; // another conversation was opened: nothing ended here
      const rest = speakable(msg.content.slice(spoken));
      const ending = endings[msg.status] ?? '';
      const wait = Math.max(0, last + ANNOUNCE_EVERY_MS - performance.now());
      setTimeout(() => setSaid(`${rest} ${ending}`.trim()), wait);
    };
  }, [convId, streamingId]);

  return said;
}
