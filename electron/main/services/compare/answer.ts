import type { ChatFigures } from '@shared/contract/chat-message';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { CompareAnswer, CompareEvent } from '@shared/contract/compare';
import { AppError } from '@shared/errors';
import { StreamedText } from '../engines/streamed-text';
import type { ChatEngine, EngineKind } from '../engines/types';
import type { Turn } from '../chat/replies/turns';
import { replyError } from '../chat/replies/reply-errors';
import type { StreamContext } from '../stream-context';

/** One answer's text as it streams, each delta sent as a `delta` event of its slot and run. */
class LiveAnswer extends StreamedText {
  answer(status: CompareAnswer['status'], extra: Partial<CompareAnswer> = {}): CompareAnswer {
    this.flush();
    return { content: this.content, ...(this.thinking ? { thinking: this.thinking } : {}), status, ...extra };
  }
}

const liveAnswer = (slot: number, run: number, ctx: StreamContext<CompareEvent>) =>
  new LiveAnswer((d) => {
    const ev: CompareEvent = { type: 'delta', slot, run };
    if (d.content) ev.content = d.content;
    if (d.thinking) ev.thinking = d.thinking;
    ctx.emit(ev);
  });

export interface AnswerJob {
  slot: number;
  run: number;
  engine: ChatEngine;
  kind: EngineKind;
  model: string;
  turns: Turn[];
  params: ChatParams;
}

/** Streams one answer; a failure or a Stop ends it (with what was measured) instead of throwing. */
export async function streamAnswer(job: AnswerJob, ctx: StreamContext<CompareEvent>): Promise<CompareAnswer> {
  const live = liveAnswer(job.slot, job.run, ctx);
  try {
    const res = await job.engine.turn(
      { model: job.model, turns: job.turns, params: job.params, signal: ctx.signal },
      live,
    );
    if (ctx.signal.aborted && !res.figures) return stopped(live);
    return live.answer('complete', res.figures ? { figures: res.figures } : {});
  } catch (e) {
    if (ctx.signal.aborted) return stopped(live);
    const err = replyError(e, job.kind, { model: job.model, started: live.started });
    const figures = live.measured();
    return live.answer('error', { error: err.toJSON(), ...(figures ? { figures } : {}) });
  }
}

function stopped(live: LiveAnswer): CompareAnswer {
  const figures = live.measured();
  return live.answer('stopped', figures ? { figures } : {});
}

/** An answer that never started: its slot failed to load, or Stop came first. */
export function unstarted(e: AppError | 'stopped'): CompareAnswer {
  return e === 'stopped' ? { content: '', status: 'stopped' } : { content: '', status: 'error', error: e.toJSON() };
}

const NUMERIC = [
  'promptTokens',
  'evalTokens',
  'tokensPerSecond',
  'promptTokensPerSecond',
  'ttftMs',
  'loadMs',
  'totalMs',
] as const;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Each figure's median over the complete answers (each on its own: an answer without it does not count). */
export function medianFigures(answers: CompareAnswer[]): ChatFigures | undefined {
  const figs = answers.filter((a) => a.status === 'complete' && a.figures).map((a) => a.figures!);
  if (!figs.length) return undefined;
  const out: ChatFigures = {};
  for (const k of NUMERIC) {
    const xs = figs.flatMap((f) => (typeof f[k] === 'number' ? [f[k]] : []));
    if (xs.length) out[k] = median(xs);
  }
  if (figs[0].source) out.source = figs[0].source;
  return out;
}
