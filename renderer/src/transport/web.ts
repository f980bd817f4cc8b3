import { AppError, isAppErrorShape } from '@shared/errors';
import { WEB, type Reply, type StreamPayload, type Transport } from '@shared/transport';
import type { WebSecret } from './web-secret';

function asAppError(body: unknown, status: number, statusText: string): AppError {
  const error = (body as { error?: unknown } | null)?.error;
  if (isAppErrorShape(error)) return AppError.from(error);
  return new AppError(status === 401 ? 'unauthorized' : 'internal', `HubDesk server answered ${status} ${statusText}`, {
    status,
  });
}

function connectionLost(e: unknown): AppError {
  if ((e as Error)?.name === 'AbortError') return new AppError('aborted', 'Cancelled.');
  return new AppError('unavailable', 'Lost the connection to HubDesk. Is `npm run web` still running?');
}

/**
 * The web mode's transport: calls are POSTs, streams are server-sent events over a streamed fetch. `secret` is the
 * page's (read at each request, so a new one from the address applies at once; main's refusal of it is reported),
 * or a fixed one (tests, benches).
 */
export function webTransport(
  baseUrl: string,
  secret: string | Pick<WebSecret, 'current' | 'refused'>,
  fetchImpl: typeof fetch = fetch,
): Transport {
  const auth = typeof secret === 'string' ? { current: () => secret, refused: () => undefined } : secret;
  const url = (path: string, name: string) => new URL(path + encodeURIComponent(name), baseUrl).toString();
  /** Sends one request with the secret in use; a refusal of it is the page's to show (see web-secret.ts). */
  const post = async (target: string, input: unknown, signal?: AbortSignal): Promise<Response> => {
    const sent = auth.current();
    const headers = { 'content-type': 'application/json', [WEB.authHeader]: `Bearer ${sent}` };
    let res: Response;
    try {
      res = await fetchImpl(target, { method: 'POST', headers, body: JSON.stringify(input ?? {}), signal });
    } catch (e) {
      throw connectionLost(e);
    }
    if (res.status === 401) {
      const error = asAppError(await res.json().catch(() => null), res.status, res.statusText);
      auth.refused(sent, error);
      throw error;
    }
    return res;
  };

  return {
    async call(name, input) {
      const res = await post(url(WEB.callPath, name), input);
      const body = (await res.json().catch(() => null)) as Reply | null;
      if (res.ok && body?.ok) return body.value;
      throw asAppError(body, res.status, res.statusText);
    },

    stream(name, input, onEvents) {
      const ctrl = new AbortController();
      const result = (async () => {
        const res = await post(url(WEB.streamPath, name), input, ctrl.signal);
        if (!res.ok || !res.body) throw asAppError(await res.json().catch(() => null), res.status, res.statusText);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += value;
            let cut: number;
            while ((cut = buf.indexOf('\n\n')) >= 0) {
              const frame = buf.slice(0, cut);
              buf = buf.slice(cut + 2);
              if (!frame.startsWith('data: ')) continue;
              const msg = JSON.parse(frame.slice(6)) as StreamPayload;
              if (msg.type === 'events') onEvents(msg.events);
              else if (msg.type === 'end') return msg.result;
              else throw AppError.from(msg.error);
            }
          }
        } catch (e) {
          if (e instanceof AppError) throw e;
          throw connectionLost(e);
        } finally {
          reader.releaseLock();
        }
        throw new AppError('unavailable', 'The HubDesk server closed the stream before it finished.');
      })();
      return { result, cancel: () => ctrl.abort() };
    },
  };
}
