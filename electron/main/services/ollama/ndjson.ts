import type { Logger } from '../log';

/**
 * Wraps a fetch so NDJSON bodies reach the ollama client with invalid lines already removed: each one is logged to
 * the app log (the client would otherwise `console.warn` it) and the stream goes on. Other bodies pass untouched.
 */
export function skipInvalidJsonLines(base: typeof fetch, log: Logger): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.ok || !res.body || !res.headers.get('content-type')?.includes('application/x-ndjson')) return res;
    return new Response(res.body.pipeThrough(ndjsonFilter(log, String(input))), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

function valid(line: string): boolean {
  if (!line.trim()) return true;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function ndjsonFilter(log: Logger, url: string): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = '';
  const warn = (line: string) =>
    log.warn('ollama: skipped a line that is not JSON', { url: url.replace(/\?.*$/, ''), line: line.slice(0, 200) });
  return new TransformStream({
    transform(chunk, ctrl) {
      rest += decoder.decode(chunk, { stream: true });
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      const kept = lines.filter((l) => valid(l) || (warn(l), false));
      if (kept.length) ctrl.enqueue(encoder.encode(kept.join('\n') + '\n'));
    },
    flush(ctrl) {
      rest += decoder.decode();
      if (!rest) return;
      if (valid(rest)) ctrl.enqueue(encoder.encode(rest));
      else warn(rest);
    },
  });
}
