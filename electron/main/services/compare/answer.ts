import type { ChatBackend, ChatFigures, ChatParams } from '@shared/contract/chat';
import type { CompareAnswer, CompareEvent } from '@shared/contract/compare';
import { AppError } from '@shared/errors';
import { partialFigures } from '../engines/figures';
import type { ChatEngine, TurnSink } from '../engines/types';
import type { Turn } from '../chat/replies/turns';
import { replyError } from '../chat/replies/reply-errors';
import type { StreamContext } from '../stream-context';

/**
 * One answer's text as it streams: kept whole for the result, and sent on as one delta per read (the parts a
 * socket read holds leave together once it is parsed, at setImmediate), as the chat's LiveReply does.
 */
class LiveAnswer implements TurnSink {
  content = '';
  thinking = '';
  private delta?: { content: string; thinking: string };
  private timer?: ReturnType<typeof setImmediate>;
  private readonly startedAt = performance.now();
  private firstAt?: number;
  private parts = 0;

  constructor(
    private readonly slot: number,
    private readonly run: number,
    private readonly ctx: StreamContext<CompareEvent>,
  ) {}

  get started(): boolean {
    return this.parts > 0;
  }

  add(content: string | undefined, thinking: string | undefined): void {
    if (!content && !thinking) return;
    this.firstAt ??= performance.now();
    this.parts++;
    const d = (this.delta ??= { content: '', thinking: '' });
    if (content) {
      this.content += content;
      d.content += content;
    }
    if (thinking) {
      this.thinking += thinking;
      d.thinking += thinking;
    }
    this.timer ??= setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    const d = this.delta;
    if (!d) return;
    this.delta = undefined;
    const ev: CompareEvent = { type: 'delta', slot: this.slot, run: this.run };
    if (d.content) ev.content = d.content;
    if (d.thinking) ev.thinking = d.thinking;
    this.ctx.emit(ev);
  }

  /** What was measured of the stream so far, for an answer that ended before the server's figures came. */
  measured(): ChatFigures | undefined {
    return partialFigures(this.parts, { started: this.startedAt, firstToken: this.firstAt, end: performance.now() });
  }

  answer(status: CompareAnswer['status'], extra: Partial<CompareAnswer> = {}): CompareAnswer {
    this.flush();
    return { content: this.content, ...(this.thinking ? { thinking: this.thinking } : {}), status, ...extra };
  }
}

export interface AnswerJob {
  slot: number;
  run: number;
  engine: ChatEngine;
  backend: ChatBackend;
  model: string;
  turns: Turn[];
  params: ChatParams;
}

/** Streams one answer; a failure or a Stop ends it (with what was measured) instead of throwing. */
export async function streamAnswer(job: AnswerJob, ctx: StreamContext<CompareEvent>): Promise<CompareAnswer> {
  const live = new LiveAnswer(job.slot, job.run, ctx);
  try {
    const res = await job.engine.turn(
      { model: job.model, turns: job.turns, params: job.params, signal: ctx.signal },
      live,
    );
    if (ctx.signal.aborted && !res.figures) return stopped(live);
    return live.answer('complete', res.figures ? { figures: res.figures } : {});
  } catch (e) {
    if (ctx.signal.aborted) return stopped(live);
    const err = replyError(e, { backend: job.backend, model: job.model, started: live.started });
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
