import type { ChatFigures } from '@shared/contract/chat-message';
import type { CompareAnswer, CompareEvent, ComparePlan, CompareSlot } from '@shared/contract/compare';
import type { StreamContext } from '../stream-context';

// What a blind comparison shows before the vote: only what every engine has alike. Which figures an engine reports
// (the server's counts, a load time, its own finish reason), whether a pane loads a model first, and the plan's
// reason (which names the model that runs here) would each tell the panes apart. The store keeps everything; the
// vote shows it.

/** The figures every engine has, measured the same way: time to first token, total time, tokens and their speed. */
const ALIKE = ['ttftMs', 'totalMs', 'evalTokens', 'tokensPerSecond'] as const;

function blindFigures(f: ChatFigures): ChatFigures {
  const out: ChatFigures = {};
  for (const k of ALIKE) if (f[k] !== undefined) out[k] = f[k];
  return out;
}

function blindAnswer(a: CompareAnswer): CompareAnswer {
  if (!a.figures) return a;
  return { ...a, figures: blindFigures(a.figures) };
}

/** The plan without its reason, which names the models and where they run; how they run stays. */
export function blindPlan(plan: ComparePlan): ComparePlan {
  return {
    ...plan,
    reason:
      plan.mode === 'parallel'
        ? 'The panes answer together; why is shown after your vote.'
        : 'The panes answer one after another; why is shown after your vote.',
  };
}

/** A slot before the vote: no pane, no load time, its answers' figures alike. */
export function blindSlot({ pane: _pane, loadMs: _loadMs, ...slot }: CompareSlot): CompareSlot {
  return {
    ...slot,
    answers: slot.answers.map(blindAnswer),
    ...(slot.median ? { median: blindFigures(slot.median) } : {}),
  };
}

/** An event as a blind comparison sends it; undefined for the load events only some panes would get. */
function blindEvent(e: CompareEvent): CompareEvent | undefined {
  if (e.type === 'loaded' || (e.type === 'state' && e.state === 'loading')) return undefined;
  if (e.type === 'start') return { ...e, plan: blindPlan(e.plan) };
  if (e.type === 'run-end') return { ...e, answer: blindAnswer(e.answer) };
  return e;
}

/** `ctx` with every event passed through blindEvent. */
export function blindContext(ctx: StreamContext<CompareEvent>): StreamContext<CompareEvent> {
  return {
    signal: ctx.signal,
    emit: (e) => {
      const shown = blindEvent(e);
      if (shown) ctx.emit(shown);
    },
  };
}
