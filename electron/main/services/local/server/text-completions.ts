import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { LocalEngine } from '../../engines/local/engine';
import type { TurnResult, TurnSink } from '../../engines/types';
import { QUEUE_LIMIT, usageOf } from './completions';
import { failOpenAI, HttpError, openEventStream, sendEvent, sendJson, toHttpError } from './http';
import type { RequestRecord } from './request-log';
import { commonFields, oneChoice, toFormat, toParams } from './wire';

// OpenAI's legacy text completions (`/v1/completions`): a prompt as it is, no chat template. What code editors'
// autocomplete sends, with `suffix` for fill-in-the-middle where the model has the tokens for it.

/** OpenAI's default for this route (chat has none): clients of it always send their own. */
const DEFAULT_MAX_TOKENS = 16;

export const completionRequestSchema = z
  .object({
    ...commonFields,
    prompt: z.union([z.string().max(4_000_000), z.array(z.string().max(4_000_000)).min(1).max(64)], {
      error: 'send the prompt as text (token arrays are not taken)',
    }),
    suffix: z.string().max(4_000_000).nullish(),
    echo: z.boolean().nullish(),
    best_of: z.number().int().nullish(),
    logprobs: z.number().int().nullish(),
  })
  .passthrough();
export type TextCompletionRequest = z.infer<typeof completionRequestSchema>;

/** What the request asks that this route does not offer, as a 400 that says what to change. */
export function completionUnsupported(r: TextCompletionRequest): HttpError | undefined {
  const refuse = (message: string) => new HttpError(400, message, 'invalid_request_error', 'unsupported_value');
  if (Array.isArray(r.prompt) && r.prompt.length > 1)
    return refuse(`${r.prompt.length} prompts in one request are not offered: send one prompt per request.`);
  if (r.echo) return refuse('echo is not offered by this server: leave it out and prepend the prompt yourself.');
  if (r.best_of != null && r.best_of !== 1) return refuse('best_of is not offered: send several requests instead.');
  if (r.logprobs) return refuse('Log probabilities are not offered by this server: leave logprobs out.');
  return oneChoice(r);
}

/** One text completion, streamed as `text_completion` events or answered whole (the chat route's framing rules). */
export async function textCompletion(
  engine: Pick<LocalEngine, 'complete'>,
  body: TextCompletionRequest,
  res: ServerResponse,
  signal: AbortSignal,
  record?: RequestRecord,
): Promise<void> {
  const id = `cmpl-${randomBytes(16).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const frame = (text: string, finish: string | null, extra: Record<string, unknown> = {}) => ({
    id,
    object: 'text_completion',
    created,
    model: body.model,
    system_fingerprint: 'hubdesk',
    choices: [{ text, index: 0, logprobs: null, finish_reason: finish }],
    ...extra,
  });
  const stream = body.stream === true;
  let text = '';
  let pieces = 0;
  let headersSent = false;
  const open = () => {
    if (headersSent) return;
    headersSent = true;
    openEventStream(res);
  };
  const sink: TurnSink = {
    get started() {
      return pieces > 0;
    },
    add(content, _thinking, tokens = 1) {
      if (!content) return;
      pieces += tokens;
      record?.reply(content);
      if (!stream) return void (text += content);
      if (signal.aborted || res.destroyed) return;
      open();
      sendEvent(res, frame(content, null));
    },
  };
  const params = toParams(body);
  params.max_tokens ??= DEFAULT_MAX_TOKENS;
  let result: TurnResult;
  try {
    result = await engine.complete(
      {
        model: body.model,
        prompt: typeof body.prompt === 'string' ? body.prompt : body.prompt[0],
        ...(body.suffix != null ? { suffix: body.suffix } : {}),
        params,
        format: toFormat(body),
        signal,
        maxQueue: QUEUE_LIMIT,
        ...(body.ttl != null ? { ttl: body.ttl } : {}),
      },
      sink,
    );
  } catch (e) {
    if (signal.aborted || res.destroyed) return void res.destroy();
    const err = toHttpError(e);
    if (record) record.error = err.message;
    return failOpenAI(res, err, headersSent);
  }
  if (signal.aborted || res.destroyed) return;
  const f = result.figures;
  const finish = f?.doneReason === 'length' ? 'length' : 'stop';
  const usage = usageOf(f, pieces);
  record?.measured(usage, f);
  if (!stream) return sendJson(res, 200, frame(text, finish, { usage }));
  open();
  sendEvent(res, frame('', finish));
  if (body.stream_options?.include_usage) sendEvent(res, { ...frame('', null, { usage }), choices: [] });
  res.end('data: [DONE]\n\n');
}
