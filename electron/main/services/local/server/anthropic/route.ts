import type { IncomingMessage, ServerResponse } from 'node:http';
import { chatModelError } from '../completions';
import { authorized, HttpError, readJson, sendJson, toHttpError } from '../http';
import type { RouteDeps } from '../route-deps';
import { contextOf, tooLongForContext } from '../prompt-size';
import { parseBody } from '../wire';
import { sendAnthropicError } from './errors';
import { createMessage } from './messages';
import { toTools, toTurns } from './engine-request';
import { countRequestSchema, messagesRequestSchema, unsupported } from './wire';

/** Whether a path is Anthropic's (`/v1/messages` and below): those answer in Anthropic's words, errors included. */
export const isAnthropicPath = (path: string) => path === '/v1/messages' || path.startsWith('/v1/messages/');

/**
 * Anthropic's Messages API: the key (x-api-key or bearer, as on every route), then `POST /v1/messages`. Every error,
 * a missing key's included, is in Anthropic's shape, which its clients read.
 */
export async function anthropicRoute(
  deps: RouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
  at: string,
  signal: AbortSignal,
): Promise<void> {
  try {
    if (!authorized(req, deps.key))
      throw new HttpError(
        401,
        'Invalid API key: send the local server\'s key as "x-api-key" or "Authorization: Bearer" (Local models → Built-in engine → Server).',
      );
    if (at === 'POST /v1/messages') {
      const body = parseBody(messagesRequestSchema, await readJson(req));
      const offered = unsupported(body);
      if (offered) throw offered;
      deps.record.model = body.model;
      const m = (await deps.models()).find((x) => x.id === body.model);
      const refused =
        chatModelError(m, body.model) ??
        tooLongForContext([body.system, body.messages, body.tools], contextOf(m!, deps.loaded()), body.model);
      if (refused) throw refused;
      return await createMessage(deps.engine, body, res, signal, deps.record);
    }
    // Counted as a reply would evaluate it: the model's own template and tokenizer, its tools documented.
    if (at === 'POST /v1/messages/count_tokens') {
      const body = parseBody(countRequestSchema, await readJson(req));
      deps.record.model = body.model;
      const refused = chatModelError(
        (await deps.models()).find((x) => x.id === body.model),
        body.model,
      );
      if (refused) throw refused;
      const { tools, toolChoice } = toTools(body);
      const tokens = await deps.engine.countTokens({ model: body.model, turns: toTurns(body), tools, toolChoice });
      deps.record.measured({ prompt_tokens: tokens, completion_tokens: 0 });
      return sendJson(res, 200, { input_tokens: tokens });
    }
    throw new HttpError(404, `No route ${at}: this server answers POST /v1/messages for Anthropic's Messages API.`);
  } catch (e) {
    const err = toHttpError(e);
    deps.record.error = err.message;
    if (err.status >= 500) deps.log.warn('local server request failed', { reason: err.message });
    if (res.headersSent) return void res.destroy();
    sendAnthropicError(res, err);
  }
}
