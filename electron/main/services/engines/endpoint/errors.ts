import { AppError, type ErrorCode } from '@shared/errors';
import { networkCause } from '../../http/network-cause';
import { companyNetworkProblem } from '../../net/network-words';
import { serverMessage } from '../../http/server-message';
import { TimeoutError } from '../../http/timeout-fetch';
import type { EndpointConnection } from './port';
import { OpenAIHttpError, StreamCut } from '../openai-stream';
import { StreamLimit } from '../sse-data';

const SETTINGS = 'Settings → Endpoints';

const CUT = /^terminated$|other side closed|socket hang up/i;

/**
 * What went wrong with a reply from one of the user's endpoints, in words that name the endpoint and say what to
 * do: start the server, fix the address or the key, pick a model it serves, turn tools off.
 */
export function endpointError(
  e: unknown,
  ctx: { conn: Pick<EndpointConnection, 'name' | 'baseUrl'>; model: string; tools: boolean; started: boolean },
): AppError {
  if (e instanceof AppError) return e;
  const { name, baseUrl } = ctx.conn;
  const make = (code: ErrorCode, message: string, status?: number, detail?: string) =>
    new AppError(code, message, { status, details: { endpoint: name, ...(detail ? { detail } : {}) } });
  const lost = () =>
    make(
      'unavailable',
      ctx.started
        ? `The connection to ${name} was lost in the middle of the reply; the text so far is kept. Check that the server is still running, then retry.`
        : `The connection to ${name} was lost before the reply began. Check that the server is still running, then retry.`,
    );
  if (e instanceof TimeoutError)
    return make(
      'timeout',
      `${name} at ${baseUrl} did not answer within ${Math.round(e.ms / 1000)} s. Check that the server is running and not stuck loading a model.`,
    );
  if (e instanceof StreamCut) return lost();
  if (e instanceof StreamLimit)
    return make(
      e.kind === 'idle' ? 'timeout' : 'upstream',
      `${name} ${e.message}, so the reply was ended${ctx.started ? '; the text so far is kept' : ''}. ${e.kind === 'idle' ? 'Check that the server is not stuck, then retry.' : "Retry, or check the server's log."}`,
    );
  if (e instanceof OpenAIHttpError) {
    const { status, body } = e.httpResponse;
    const detail = typeof body === 'string' && /^\s*</.test(body) ? undefined : serverMessage(body);
    const why = detail ? ` (${detail})` : '';
    const tools = ctx.tools
      ? " The server may not support tool calling for this model (llama.cpp needs --jinja): turn this conversation's tools off, or start the server with tool support."
      : '';
    if (e.kind === 'notOpenAI')
      return make(
        'upstream',
        `${baseUrl} did not answer like an OpenAI-compatible API (it sent ${e.contentType.split(';')[0] || 'no content type'}${why}). Check the address and port of ${name} in ${SETTINGS}.`,
        status,
        detail,
      );
    if (e.kind === 'midStream')
      return make(
        'upstream',
        `${name} stopped with an error${why}.${ctx.started ? ' The text so far is kept.' : ''} Retry, or check the server's log.`,
        status,
        detail,
      );
    if (status === 401 || status === 403)
      return make(
        status === 401 ? 'unauthorized' : 'forbidden',
        `${name} refused the request: it needs an API key, or refused the one given (HTTP ${status}${why}). Enter the server's key for ${name} in ${SETTINGS}.`,
        status,
        detail,
      );
    if (status === 404)
      return make(
        'not_found',
        `${name} has no chat for ${ctx.model} at ${baseUrl}${why}. Choose a model the server lists, or check whether the address needs /v1 (Test in ${SETTINGS} finds it).`,
        status,
        detail,
      );
    if (status === 400 || status === 422)
      return make(
        'invalid_input',
        `${name} refused the request${why}. Check the model and the parameters (max tokens, the context length the server runs with).${tools}`,
        status,
        detail,
      );
    if (status === 429)
      return make('rate_limited', `${name} is busy${why}. Wait a moment, then retry.`, status, detail);
    if (status === 503)
      return make(
        'unavailable',
        `${name} is not ready${why}: it may still be loading the model. Wait a moment, then retry.`,
        status,
        detail,
      );
    if (status >= 500)
      return make(
        'upstream',
        `${name} failed (HTTP ${status}${why}). Retry, or check the server's log.${tools}`,
        status,
        detail,
      );
    return make('upstream', `${name} answered HTTP ${status}${why}.`, status, detail);
  }
  const company = companyNetworkProblem(e, baseUrl);
  if (company) return make('unavailable', company.message);
  const { kind, code } = networkCause(e);
  const message = (e as Error)?.message ?? String(e);
  if (kind === 'refused')
    return make(
      'unavailable',
      `Nothing is listening at ${baseUrl}: start the server, or check the address in ${SETTINGS}.`,
    );
  if (kind === 'unknown-host')
    return make('unavailable', `The host of ${baseUrl} is unknown: check the address of ${name} in ${SETTINGS}.`);
  if (kind === 'not-https')
    return make(
      'unavailable',
      `${baseUrl} does not speak https (${code}): check the address of ${name} in ${SETTINGS} (http:// instead?).`,
    );
  // Before the codes below: a body cut off mid-reply is a lost connection, whatever its cause says.
  if (kind === 'reset' || CUT.test(message)) return lost();
  if (kind === 'unreachable' || kind === 'timeout')
    return make(
      'unavailable',
      `${baseUrl} cannot be reached (${code}): check the network and the address in ${SETTINGS}.`,
    );
  return make('upstream', `${name} failed: ${message}`);
}
