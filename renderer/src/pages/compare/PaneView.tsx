import { useState } from 'react';
import type { RunView, SlotView } from '../../store/compare';
import { liveAnswerId } from '../../store/compare';
import { MarkdownBody, Thinking } from '../chat/MarkdownBody';
import { figureParts } from './figures';

const stateWords = (s: SlotView, repeat: number) => {
  const of = repeat > 1 ? ` — run ${s.run + 1} of ${repeat}` : '';
  if (s.state === 'waiting') return 'Waiting for its turn…';
  if (s.state === 'loading') return 'Loading the model…';
  // Repeats run in step: a pane that finished run k waits for the others before run k+1.
  if (s.state === 'streaming' && s.answers[s.run])
    return s.run < repeat - 1 ? `Run ${s.run + 1} of ${repeat} done, waiting for the other panes…` : 'Finishing…';
  if (s.state === 'streaming') return `Answering${of}…`;
  return '';
};

/** ‹ 2/3 ›: which of a pane's repeated answers is shown. */
function AnswerPicker({ n, i, onPick }: { n: number; i: number; onPick(i: number): void }) {
  return (
    <span className="cmp-answer-pick">
      <button
        className="btn btn-ghost btn-xs"
        aria-label="Previous answer"
        disabled={i <= 0}
        onClick={() => onPick(i - 1)}
      >
        ‹
      </button>
      <span>
        answer {i + 1} of {n}
      </span>
      <button
        className="btn btn-ghost btn-xs"
        aria-label="Next answer"
        disabled={i >= n - 1}
        onClick={() => onPick(i + 1)}
      >
        ›
      </button>
    </span>
  );
}

/**
 * One pane of a comparison: its state while it runs, its answer as Markdown (live while it streams), and under it
 * the figures (medians when it answered more than once). An error shows here only; the other panes go on.
 */
export function PaneView({
  run,
  slot,
  index,
  actions,
}: {
  run: RunView;
  slot: SlotView;
  index: number;
  actions?: React.ReactNode;
}) {
  const [picked, setPicked] = useState<number>();
  const shown = slot.state === 'done' ? (picked ?? slot.run) : slot.run;
  const answer = slot.answers[shown];
  const streaming = slot.state === 'streaming' && shown === slot.run && !answer;
  const state = stateWords(slot, run.repeat);
  const complete = slot.answers.filter((a) => a.status === 'complete').length;
  const useMedian = run.repeat > 1 && slot.median;
  // A model that failed to load has no load time to show; a blind run shows none before the vote (main sends none
  // then either: only a pane on this machine would have one).
  const hideLoad = (answer?.status === 'error' && !answer.figures) || (run.blind && !run.vote);
  const figures = figureParts(useMedian ? slot.median : answer?.figures, hideLoad ? undefined : slot.loadMs);
  return (
    <article className="cmp-pane" data-testid="compare-pane" data-state={slot.state} aria-label={slot.label}>
      <header className="cmp-pane-head">
        <h3 data-testid="pane-label">{slot.label}</h3>
        {state && (
          <span className="muted small cmp-state" role="status" data-testid="pane-state">
            {(slot.state === 'loading' || slot.state === 'streaming') && <span className="spinner" aria-hidden />}
            {state}
          </span>
        )}
      </header>
      {/* Scrolls on its own: focusable so the keyboard can scroll a long answer. */}
      <div className="cmp-answer" tabIndex={0} role="region" aria-label={`Answer of ${slot.label}`}>
        {streaming ? (
          <>
            <Thinking liveId={liveAnswerId(index, slot.run)} />
            <MarkdownBody text="" liveId={liveAnswerId(index, slot.run)} />
          </>
        ) : answer ? (
          <>
            <Thinking thinking={answer.thinking} />
            <MarkdownBody text={answer.content} />
          </>
        ) : slot.state === 'done' ? (
          <p className="muted small">No answer.</p>
        ) : null}
        {answer?.status === 'stopped' && (
          <div className="msg-note" data-testid="pane-stopped">
            Stopped
          </div>
        )}
        {answer?.status === 'error' && answer.error && (
          <div className="msg-note msg-note-error" role="alert" data-testid="pane-error">
            {answer.error.message}
          </div>
        )}
      </div>
      {(figures.length > 0 || slot.answers.length > 1) && (
        <footer className="cmp-pane-foot">
          {slot.answers.length > 1 && slot.state === 'done' && (
            <AnswerPicker n={slot.answers.length} i={shown} onPick={setPicked} />
          )}
          {figures.length > 0 && (
            <span className="msg-figures" data-testid="pane-figures">
              {figures.map((p, i) => (
                <span key={i} className="msg-figure">
                  {i > 0 && ' · '}
                  {p}
                </span>
              ))}
              {useMedian && <span className="muted"> · median of {complete}</span>}
            </span>
          )}
        </footer>
      )}
      {actions}
    </article>
  );
}
