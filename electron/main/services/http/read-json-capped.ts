/**
 * Why a capped body read stopped: `too-large` past `maxBytes`, `timeout` past `timeoutMs`, `not-json` when what
 * arrived does not parse. Callers word it for their reader (the Hub client, the download's tree).
 */
export class CappedReadError extends Error {
  constructor(
    readonly kind: 'too-large' | 'timeout' | 'not-json',
    readonly limit: number,
    message: string,
  ) {
    super(message);
    this.name = 'CappedReadError';
  }
}

export interface CapOptions {
  /** Bytes read at most: one more and the body is cancelled (a server can stream without end). */
  maxBytes: number;
  /** The whole body's deadline from the call (a server can send headers, then drip or stall forever). */
  timeoutMs: number;
}

/** `n` bytes in the words of the messages (MB from 1 MB up). */
export function capWords(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${n} bytes`;
}

/**
 * A response body read as JSON without ever holding more than `maxBytes` or waiting past `timeoutMs`: the body is
 * read chunk by chunk and cancelled at either limit (a Content-Length above the cap is refused before any read).
 */
export async function readJsonCapped(res: Response, o: CapOptions): Promise<unknown> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > o.maxBytes) {
    void res.body?.cancel().catch(() => {});
    throw tooLarge(o.maxBytes);
  }
  const reader = res.body?.getReader();
  if (!reader) throw new CappedReadError('not-json', o.maxBytes, 'the answer is empty');
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A pending read is raced, not awaited: Node's fetch can leave it pending after a cancel (nodejs/node#56917).
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CappedReadError('timeout', o.timeoutMs, `no whole answer within ${secs(o.timeoutMs)}`)),
      o.timeoutMs,
    );
  });
  expired.catch(() => {});
  const chunks: Uint8Array[] = [];
  let got = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), expired]);
      if (done) break;
      got += value.byteLength;
      if (got > o.maxBytes) throw tooLarge(o.maxBytes);
      chunks.push(value);
    }
  } catch (e) {
    void reader.cancel().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
  const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CappedReadError('not-json', o.maxBytes, 'the answer is not JSON');
  }
}

const secs = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;
const tooLarge = (max: number) => new CappedReadError('too-large', max, `the answer passed ${capWords(max)}`);
