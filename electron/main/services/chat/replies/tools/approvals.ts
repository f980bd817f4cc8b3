import { AppError } from '@shared/errors';

type Answer = 'once' | 'always' | 'deny';

interface Waiting {
  convId: string;
  /** The tool's `toolKey`, which an "always" answer adds to the conversation's allowed tools. */
  key: string;
  answer(a: Answer): void;
}
interface Running {
  convId: string;
  controller: AbortController;
}

/**
 * Tool calls waiting for the user (approval) or running (cancellable), by their tool message id. The reply that
 * owns a call waits here; `chat.toolDecision` answers it from another request.
 */
export class ToolApprovals {
  private readonly waiting = new Map<string, Waiting>();
  private readonly running = new Map<string, Running>();

  /** Waits for the user's answer; the reply's Stop ends the wait. */
  ask(convId: string, messageId: string, key: string, signal: AbortSignal): Promise<Answer> {
    return new Promise<Answer>((ok, fail) => {
      const onAbort = () => {
        this.waiting.delete(messageId);
        fail(new AppError('aborted', 'Stopped.'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(messageId, {
        convId,
        key,
        answer: (a) => {
          signal.removeEventListener('abort', onAbort);
          this.waiting.delete(messageId);
          ok(a);
        },
      });
    });
  }

  /** Registers a running call so the user can cancel it; call the returned function when it ends. */
  track(convId: string, messageId: string, controller: AbortController): () => void {
    this.running.set(messageId, { convId, controller });
    return () => this.running.delete(messageId);
  }

  /** The tool a waiting call would run, by its `toolKey` (to remember an "always" answer before it resumes). */
  waitingKey(convId: string, messageId: string): string {
    const w = this.waiting.get(messageId);
    if (!w || w.convId !== convId) throw gone();
    return w.key;
  }

  decide(convId: string, messageId: string, decision: Answer | 'cancel'): void {
    if (decision === 'cancel') {
      const r = this.running.get(messageId);
      if (!r || r.convId !== convId) throw gone();
      r.controller.abort(new AppError('aborted', 'You cancelled this call.'));
      return;
    }
    const w = this.waiting.get(messageId);
    if (!w || w.convId !== convId) throw gone();
    w.answer(decision);
  }
}

const gone = () =>
  new AppError('conflict', 'That tool call is no longer waiting: it was answered, stopped or has finished.');
