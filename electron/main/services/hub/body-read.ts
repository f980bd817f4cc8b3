import { AppError } from '@shared/errors';
import { CappedReadError, capWords } from '../http/read-json-capped';

/** A text body capped in size (the cap keeps a 5 MB README from being read whole). */
export interface CappedText {
  text: string;
  truncated: boolean;
  /** The file's full size, from Content-Length, when the Hub sent it. */
  size?: number;
}

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

/** The bytes of an error answer read for its message. */
export const ERROR_MAX_BYTES = 64 * 1024;

/** Why a body could not be read, in words. */
export function bodyError(e: unknown, host: string, what: string): AppError {
  if (e instanceof CappedReadError && e.kind === 'too-large')
    return new AppError(
      'upstream',
      `The Hub at ${host} sent more than ${capWords(e.limit)} for the ${what}: not read.`,
    );
  if (e instanceof CappedReadError && e.kind === 'timeout')
    return new AppError(
      'timeout',
      `The Hub at ${host} did not finish its answer for the ${what} within ${e.limit / 1000} s.`,
    );
  return new AppError('upstream', `The Hub at ${host} sent an unreadable answer for the ${what}.`);
}
