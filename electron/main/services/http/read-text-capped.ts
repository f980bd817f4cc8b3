import { CappedReadError } from './read-json-capped';

/** A text body capped in size (the cap keeps a 5 MB README, or a server that never stops, from being read whole). */
export interface CappedText {
  text: string;
  truncated: boolean;
  /** The body's full size, from Content-Length, when the server sent it. */
  size?: number;
}

/**
 * A response body as text, at most `maxBytes` (cut at the last whole line, `truncated` set) and within `timeoutMs`
 * (a stalled body throws CappedReadError `timeout`).
 */
export async function readCappedText(res: Response, maxBytes: number, timeoutMs: number): Promise<CappedText> {
  const length = Number(res.headers.get('content-length') ?? NaN);
  const size = Number.isFinite(length) ? length : undefined;
  const reader = res.body?.getReader();
  if (!reader) return { text: '', truncated: false, size };
  const chunks: Uint8Array[] = [];
  let got = 0;
  let truncated = false;
  // A stalled body ends the read like a cut one (raced: a cancelled read can stay pending, nodejs/node#56917).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CappedReadError('timeout', timeoutMs, 'stalled')), timeoutMs);
  });
  expired.catch(() => {});
  for (;;) {
    const { done, value } = await Promise.race([reader.read(), expired]).catch((e: unknown) => {
      clearTimeout(timer);
      void reader.cancel().catch(() => {});
      throw e;
    });
    if (done) break;
    chunks.push(value);
    got += value.byteLength;
    if (got > maxBytes) {
      truncated = true;
      void reader.cancel().catch(() => {});
      break;
    }
  }
  clearTimeout(timer);
  let bytes = Buffer.concat(chunks);
  if (truncated) {
    bytes = bytes.subarray(0, maxBytes);
    const nl = bytes.lastIndexOf(10);
    if (nl > 0) bytes = bytes.subarray(0, nl + 1);
  }
  // A multi-byte character cut at the cap decodes to U+FFFD rather than failing.
  return { text: new TextDecoder('utf-8').decode(bytes), truncated, size: size ?? (truncated ? undefined : got) };
}
