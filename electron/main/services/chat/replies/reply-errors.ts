import type { ChatBackend } from '@shared/contract/chat';
import type { ReplyAction } from '@shared/reply-action';
import { AppError, toAppError } from '@shared/errors';

const BILLING_URL = 'https://huggingface.co/settings/billing';

const withAction = (e: AppError, message: string, action?: ReplyAction, code = e.code) =>
  new AppError(code, message, {
    status: e.status,
    details: { ...((e.details as object | undefined) ?? {}), original: e.message, ...(action ? { action } : {}) },
  });

/** Ollama's texts when its model runner process died (killed for memory, crashed on load…). */
const RUNNER_DIED = /runner process has terminated|llama runner|signal: killed|exit status \d|out of memory/i;
/** What the HTTP client says when a stream stops without Ollama's final line (the server went away). */
const CUT = /^terminated$|other side closed|ECONNRESET|socket hang up|Did not receive done or success response/i;

/**
 * One vocabulary for a failed reply, Ollama, the router or an endpoint: a message that says what happened and what to do,
 * and the action the chat offers as a button (details.action).
 */
export function replyError(e: unknown, ctx: { backend: ChatBackend; model: string; started: boolean }): AppError {
  const err = toAppError(e);
  if (err.code === 'aborted') return err;
  const text = `${err.message} ${String((err.details as { reason?: string } | undefined)?.reason ?? '')}`;
  if (ctx.backend === 'ollama') {
    if (err.status === 404 && /not found/i.test(err.message))
      return withAction(
        err,
        `${ctx.model} is not on your Ollama server. Pull it, then try again.`,
        { kind: 'pull', model: ctx.model },
        'not_found',
      );
    if (RUNNER_DIED.test(err.message))
      return withAction(
        err,
        `Ollama's runner stopped — often out of memory; try a smaller quant or a shorter context (num_ctx). (${err.message})`,
        { kind: 'retry' },
        'upstream',
      );
    if (CUT.test(text) || (ctx.started && err.code === 'unavailable'))
      return withAction(
        err,
        ctx.started
          ? 'Ollama stopped answering mid-reply; the partial reply is kept.'
          : 'Ollama stopped answering before the reply began.',
        { kind: 'retry' },
        'unavailable',
      );
    if (err.code === 'unavailable' || err.code === 'timeout') return withAction(err, err.message, { kind: 'retry' });
    return err;
  }
  const retry = ['unavailable', 'timeout', 'rate_limited', 'upstream'].includes(err.code);
  // An endpoint's errors already name it and say what to do (engines/endpoint-errors.ts), as do the built-in
  // engine's (engines/local.ts); they get the button.
  if (ctx.backend === 'endpoint' || ctx.backend === 'local')
    return retry ? withAction(err, err.message, { kind: 'retry' }) : err;
  if (err.status === 402)
    return withAction(
      err,
      'Your Hugging Face credits are used up. Add credits on the billing page, or bill an organisation (Settings → Bill to).',
      { kind: 'billing', url: BILLING_URL },
      'forbidden',
    );
  if (CUT.test(text))
    return withAction(
      err,
      ctx.started
        ? 'The inference router stopped answering mid-reply; the partial reply is kept.'
        : 'The inference router stopped answering before the reply began.',
      { kind: 'retry' },
      'unavailable',
    );
  if (retry) return withAction(err, err.message, { kind: 'retry' });
  return err;
}
