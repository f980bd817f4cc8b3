import { useRef, useState } from 'react';
import { useCompare } from '../../store/compare';

/** The one prompt for every pane: Enter sends, Shift+Enter is a new line; Stop stops every pane. */
export function PromptBox({ ready, why }: { ready: boolean; why?: string }) {
  const [text, setText] = useState('');
  const running = useCompare((s) => !!s.running);
  const error = useCompare((s) => s.error);
  const { repeat, blind } = useCompare((s) => s.set);
  const { start, stop, edit } = useCompare.getState();
  const canSend = ready && !running && text.trim().length > 0;
  const box = useRef<HTMLDivElement>(null);
  const submit = () => {
    if (!canSend) return;
    start(text.trim());
    // The answers come under the prompt: on a short window they and Stop are brought into view together.
    box.current?.scrollIntoView?.({ block: 'start' });
  };
  return (
    <div className="cmp-prompt" ref={box}>
      <div className="composer-row">
        <textarea
          aria-label="Prompt"
          data-testid="compare-prompt"
          rows={3}
          value={text}
          placeholder="One prompt for every pane…  (Enter to send, Shift+Enter for a new line)"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <div className="composer-actions">
          {running ? (
            <button className="btn btn-danger" data-testid="compare-stop" onClick={stop}>
              Stop
            </button>
          ) : (
            <button
              className="btn btn-primary"
              data-testid="compare-send"
              disabled={!canSend}
              title={why}
              onClick={submit}
            >
              Compare
            </button>
          )}
        </div>
      </div>
      <div className="cmp-prompt-opts">
        <label className="param cmp-repeat">
          <span>Repeat</span>
          <input
            type="number"
            min={1}
            max={10}
            value={repeat}
            disabled={running}
            onChange={(e) => {
              const n = Math.round(Number(e.target.value));
              if (n >= 1 && n <= 10) edit({ repeat: n });
            }}
          />
        </label>
        <label className="toggle">
          <input
            type="checkbox"
            role="switch"
            checked={blind}
            disabled={running}
            onChange={(e) => edit({ blind: e.target.checked })}
          />
          Blind (names hidden until you vote)
        </label>
        {why && !running && <span className="muted small">{why}</span>}
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid="compare-error">
          {error.message}
        </p>
      )}
    </div>
  );
}
