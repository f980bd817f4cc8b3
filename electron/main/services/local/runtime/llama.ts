import type { Llama } from 'node-llama-cpp';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';

/** llama.cpp's recent error lines: node-llama-cpp's own error only says "Failed to load model", the log says why. */
class LlamaLog {
  private lines: { n: number; text: string }[] = [];
  private count = 0;

  record(text: string): void {
    this.lines.push({ n: ++this.count, text });
    if (this.lines.length > 20) this.lines.shift();
  }

  /** A position to read `since` from. */
  mark(): number {
    return this.count;
  }

  /** The error lines written after `mark`. */
  since(mark: number): string[] {
    return this.lines.filter((l) => l.n > mark).map((l) => l.text);
  }

  /** The lines after `mark`, once those llama.cpp wrote before its call failed have come through (they queue). */
  async after(mark: number): Promise<string[]> {
    await new Promise((r) => setTimeout(r, 25));
    return this.since(mark);
  }
}

/** The tiny test models trip this harmless check; it is noise in the app's log. */
const NOISE = /tokenize text and then detokenize it resulted in a different text/;

/** Where llama.cpp's lines go: the log of the runtime that started it (one llama.cpp per process). */
let sink: Logger | undefined;
let shared: Promise<Llama> | undefined;
/** llama.cpp's error lines, for every runtime of the process (its log callback is process-wide). */
export const llamaErrors = new LlamaLog();

/**
 * llama.cpp for this process, one instance for its lifetime: node-llama-cpp imported here, on first use (never at
 * launch), prebuilt binaries only (a user's machine has no compiler), its log lines into HubDesk's log. A failed
 * start is tried again on the next use.
 */
export function startLlama(opts: { gpu: false | 'auto'; log: Logger }): Promise<Llama> {
  sink = opts.log;
  shared ??= open(opts.gpu).catch((e: unknown) => {
    shared = undefined;
    opts.log.error('llama.cpp did not start', { message: String((e as Error)?.message ?? e) });
    throw new AppError(
      'unavailable',
      `The built-in engine could not start on this machine: ${(e as Error)?.message ?? String(e)}`,
    );
  });
  return shared;
}

async function open(gpu: false | 'auto'): Promise<Llama> {
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  return getLlama({
    gpu,
    build: 'never',
    skipDownload: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.warn,
    logger: (level, message) => {
      const text = message.trim();
      if (!text || NOISE.test(text)) return;
      if (level === LlamaLogLevel.error || level === LlamaLogLevel.fatal) {
        llamaErrors.record(text);
        sink?.warn('llama.cpp', { message: text });
      } else sink?.debug('llama.cpp', { message: text });
    },
  });
}
