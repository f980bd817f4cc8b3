import { AppError, isAppErrorShape } from '@shared/errors';
import { WEB, type Reply, type StreamPayload, type Transport } from '@shared/transport';

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

/** The web mode's transport: calls are POSTs, streams are server-sent events over a streamed fetch. */
export function webTransport(baseUrl: string, secret: string, fetchImpl: typeof fetch = fetch): Transport {
  const headers = { 'content-type': 'application/json', [WEB.authHeader]: `Bearer ${secret}` };
  const url = (path: string, name: string) => new URL(path + encodeURIComponent(name), baseUrl).toString();

  return {
    async call(name, input) {
      let res: Response;
      try {
        res = await fetchImpl(url(WEB.callPath, name), { method: 'POST', headers, body: JSON.stringify(input ?? {}) });
      } catch (e) {
        throw connectionLost(e);
      }
      const body = (await res.json().catch(() => null)) as Reply | null;
      if (res.ok && body?.ok) return body.value;
      throw asAppError(body, res.status, res.statusText);
    },

    stream(name, input, onEvents) {
      const ctrl = new AbortController();
      const result = (async () => {
        let res: Response;
        try {
          res = await fetchImpl(url(WEB.streamPath, name), {
            method: 'POST',
            headers,
            body: JSON.stringify(input ?? {}),
            signal: ctrl.signal,
          });
        } catch (e) {
          throw connectionLost(e);
        }
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
