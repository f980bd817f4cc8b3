import { useLayoutEffect, useRef } from 'react';
import { loadHeldImage } from '../../lib/markdown/held-images';
import { IncrementalMarkdown } from '../../lib/markdown/incremental';
import { warmHighlighter } from '../../lib/markdown/render';
import { liveText } from '../../store/chat';

// Loaded with the chat: the highlighter's languages compile while the window is idle, not in a streaming frame.
warmHighlighter();

/**
 * A reply's text as Markdown. The same element shows it while it streams (from the live buffer, outside React state)
 * and once it is final, so completing a reply re-renders nothing that is already on screen.
 */
export function MarkdownBody({ text, liveId }: { text: string; liveId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const view = useRef<IncrementalMarkdown | null>(null);
  useLayoutEffect(() => {
    const md = (view.current ??= new IncrementalMarkdown(ref.current!, { progressive: true }));
    if (!liveId) {
      md.update(text, true);
      return;
    }
    const live = liveText(liveId);
    const draw = () => md.update(live.content, false);
    draw();
    return live.subscribe(draw);
  }, [text, liveId]);
  // A remote image shows only when its button is clicked (a link around it does not open then).
  const onClick = (e: React.MouseEvent) => {
    if (loadHeldImage(e.target)) e.preventDefault();
  };
  return (
    <div
      className="msg-body markdown"
      ref={ref}
      onClick={onClick}
      data-testid={liveId ? 'msg-streaming' : 'msg-markdown'}
    />
  );
}

/** The model's reasoning: live while it streams, folded once the reply is final. */
export function Thinking({ thinking, liveId }: { thinking?: string; liveId?: string }) {
  const pre = useRef<HTMLPreElement>(null);
  const details = useRef<HTMLDetailsElement>(null);
  useLayoutEffect(() => {
    if (!liveId) return;
    const live = liveText(liveId);
    const draw = () => {
      if (!live.thinking) return;
      details.current!.hidden = false;
      pre.current!.textContent = live.thinking;
    };
    draw();
    return live.subscribe(draw);
  }, [liveId]);
  if (liveId)
    return (
      <details className="msg-thinking" ref={details} hidden open>
        <summary>Thinking…</summary>
        <pre ref={pre} />
      </details>
    );
  if (!thinking) return null;
  return (
    <details className="msg-thinking">
      <summary>Thinking</summary>
      <pre>{thinking}</pre>
    </details>
  );
}
