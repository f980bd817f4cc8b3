import { untilAborted } from '../http/until-aborted';

/** What one endpoint stream may take: a server that sends without end must not fill the page or the store. */
export interface StreamLimits {
  /** The largest single event, in characters (a chunk is a few hundred; a 50 MB one is a broken server). */
  maxEventChars: number;
  /** The largest reply, text, thinking and tool arguments together, in characters. */
  maxReplyChars: number;
  /** How long the stream may send nothing at all before the reply ends. */
  idleMs: number;
}

export const STREAM_LIMITS: StreamLimits = {
  maxEventChars: 1024 * 1024,
  maxReplyChars: 4_000_000,
  idleMs: 60_000,
};

const size = (chars: number) =>
  chars >= 1024 * 1024 ? `${Math.round(chars / 1024 / 1024)} M characters` : `${Math.round(chars / 1024)} K characters`;

/** A stream ended by one of its limits; `message` names what happened, the engines add whose server it was. */
export class StreamLimit extends Error {
  constructor(
    readonly kind: 'event' | 'reply' | 'idle',
    readonly limit: number,
  ) {
    super(
      kind === 'idle'
        ? `stopped sending for ${limit >= 1000 ? Math.round(limit / 1000) : limit / 1000} s`
        : kind === 'event'
          ? `sent one event larger than ${size(limit)}`
          : `sent a reply longer than ${size(limit)}`,
    );
    this.name = 'StreamLimit';
  }
}

/** `source`'s items, or a StreamLimit('idle') when none comes for `ms`; the source is closed on every exit. */
async function* untilIdle<T>(source: AsyncIterable<T>, ms: number): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StreamLimit('idle', ms)), ms);
      });
      try {
        const next = await Promise.race([it.next(), idle]);
        if (next.done) return;
        yield next.value;
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    void it.return?.()?.catch(() => {});
  }
}

const dataOf = (line: string) => line.slice(line[5] === ' ' ? 6 : 5);

/**
 * The `data:` payloads of an SSE body, event by event (comments, `event:` and `id:` lines ignored). Each chunk is
 * scanned once (a line's pieces wait in a list until its newline), so a huge event costs linear time, and it is
 * refused past `maxEventChars` before it is held whole.
 */
export async function* sseData(
  body: AsyncIterable<Uint8Array>,
  signal: AbortSignal,
  limits: Pick<StreamLimits, 'maxEventChars' | 'idleMs'>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  let piecesLength = 0;
  let data: string[] = [];
  let dataLength = 0;
  for await (const chunk of untilIdle(untilAborted(body, signal), limits.idleMs)) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) >= 0) {
      let line = text.slice(start, nl);
      start = nl + 1;
      if (pieces.length) {
        line = pieces.join('') + line;
        pieces = [];
        piecesLength = 0;
      }
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (data.length) yield data.join('\n');
        data = [];
        dataLength = 0;
      } else if (line.startsWith('data:')) {
        const d = dataOf(line);
        data.push(d);
        dataLength += d.length;
      }
    }
    if (start < text.length) {
      pieces.push(text.slice(start));
      piecesLength += text.length - start;
    }
    if (dataLength + piecesLength > limits.maxEventChars) throw new StreamLimit('event', limits.maxEventChars);
  }
  const last = (pieces.join('') + decoder.decode()).replace(/\r$/, '');
  if (last.startsWith('data:')) data.push(dataOf(last));
  if (data.length) yield data.join('\n');
}
