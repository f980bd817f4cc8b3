import { AppError, type ErrorCode } from '@shared/errors';
import { networkErrorCode } from '../../http/network-cause';
import { companyNetworkProblem } from '../../net/network-words';
import { serverMessage } from '../../http/server-message';
import { TimeoutError } from '../../http/timeout-fetch';
import { OpenAIHttpError } from '../openai-stream';
import { StreamLimit } from '../sse-data';

/** What the router's messages name: where the request went, and what it asked for. */
interface RouterRequestInfo {
  routerUrl: string;
  model: string;
  /** `auto` lets the router choose; otherwise `model:provider` pins one. */
  provider: string;
  tools?: unknown[];
}

interface HttpErrorLike {
  name?: string;
  message?: string;
  httpResponse?: { status?: number; body?: unknown };
}

export function httpStatusOf(e: unknown): number | undefined {
  const s = (e as HttpErrorLike)?.httpResponse?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Turns what the router request threw into a message a person can act on. */
export function providerError(e: unknown, req: RouterRequestInfo): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof TimeoutError)
    return new AppError(
      'timeout',
      `The inference router at ${req.routerUrl} did not answer within ${Math.round(e.ms / 1000)} s. Try again, or check the router URL in Settings.`,
    );
  if (e instanceof StreamLimit)
    return new AppError(
      e.kind === 'idle' ? 'timeout' : 'upstream',
      `The inference router ${e.message}, so the reply was ended; any text so far is kept. Retry, or choose another provider.`,
    );
  const err = e as HttpErrorLike;
  if (err?.name === 'AbortError') return new AppError('aborted', 'Stopped.');
  if (e instanceof OpenAIHttpError && e.kind === 'notOpenAI')
    return new AppError(
      'upstream',
      `The inference router at ${req.routerUrl} answered with something that is not a chat stream (${e.contentType || 'no content type'}). Check the router URL in Settings.`,
      { status: e.httpResponse.status },
    );
  const status = httpStatusOf(e);
  if (status !== undefined) {
    const detail = serverMessage(err.httpResponse?.body);
    const why = detail ? ` (${detail})` : '';
    const where = req.provider === 'auto' ? 'any provider' : `provider ${req.provider}`;
    const make = (code: ErrorCode, message: string) =>
      new AppError(code, message, { status, details: detail ? { detail } : undefined });
    // Tools are the usual reason a provider refuses an otherwise fine request: say so, with the way out.
    const tools = req.tools?.length
      ? " The model or provider may not support tool calling: turn this conversation's tools off, or choose another provider."
      : '';
    if (status === 400)
      return make(
        'invalid_input',
        `The request was refused as invalid${why}. Check the model id and the parameters.${tools}`,
      );
    if (status === 401) return make('unauthorized', 'The Hugging Face token was rejected — set it in Settings.');
    if (status === 403)
      return make(
        'forbidden',
        `The Hugging Face token may not use ${req.model} on ${where}${why}. Give the token the "Inference Providers" permission, or check the bill-to organisation in Settings.`,
      );
    if (status === 404)
      return make(
        'not_found',
        `${req.model} is not available on ${where}${why}. Check the model id, or choose another provider.`,
      );
    if (status >= 200 && status < 300)
      // An error event inside a stream that had begun (HTTP 200): the provider's own words are the message.
      return make('upstream', `The provider stopped with an error: ${detail || 'no reason given'}.`);
    if (status === 402) return make('forbidden', `Your Hugging Face credits are used up${why}.`);
    if (status === 409) return make('conflict', `The provider reported a conflict${why}. Try again in a moment.`);
    if (status === 422)
      return make(
        'invalid_input',
        `The provider could not use these settings${why}. Change the parameters (e.g. max tokens) and try again.${tools}`,
      );
    if (status === 429)
      return make(
        'rate_limited',
        `Too many requests, or your Inference Providers credits are used up${why}. Wait a moment, or choose another provider.`,
      );
    if (status === 503)
      return make(
        'unavailable',
        `The provider is unavailable right now${why}. Try again later, or choose another provider.`,
      );
    if (status === 504) return make('timeout', `The provider timed out${why}. Try again, or choose another provider.`);
    if (status >= 500)
      return make('upstream', `The provider failed (HTTP ${status})${why}. Try again, or choose another provider.`);
    return make('upstream', `The router answered HTTP ${status}${why}.`);
  }
  const company = companyNetworkProblem(e, req.routerUrl);
  if (company) return company;
  const net = networkErrorCode(e);
  const message = err?.message ?? String(e);
  if (net || message === 'fetch failed')
    return new AppError(
      'unavailable',
      `Cannot reach the inference router at ${req.routerUrl}${net ? ` (${net})` : ''}. Check your connection, or the router URL in Settings.`,
    );
  if (message === 'terminated' || /other side closed|socket/i.test(message))
    return new AppError('unavailable', 'The connection to the inference router was lost in the middle of the reply.');
  if (/while streaming the response/.test(message))
    return new AppError(
      'upstream',
      `The provider failed mid-reply: ${message.replace(/^.*while streaming the response: /, '')}`,
    );
  return new AppError('upstream', message);
}
