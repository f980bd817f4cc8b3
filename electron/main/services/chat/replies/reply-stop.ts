import type { ShownText } from '@shared/contract/chat';
import type { ReplyCtx } from './reply';

/**
 * The Stop of one running reply. The person's Stop (`chat.stop`) and a delete end the reply here, in main, rather
 * than by cancelling the stream: the reply still writes and reports its end, and keeps what the page showed
 * (`shown`) instead of the tokens that reached main after the last paint.
 */
export class ReplyStop {
  private readonly controller = new AbortController();
  private shownText?: ShownText;
  /** The stream's context, aborted by the stream's own cancel or by `stop`. */
  readonly ctx: ReplyCtx;

  constructor(outer: ReplyCtx) {
    this.ctx = {
      emit: outer.emit,
      signal: AbortSignal.any([outer.signal, this.controller.signal]),
      shown: () => this.shownText,
    };
  }

  /** Aborts the reply; the first Stop says what is kept. */
  stop(shown?: ShownText): void {
    if (this.ctx.signal.aborted) return;
    this.shownText = shown;
    this.controller.abort();
  }
}
