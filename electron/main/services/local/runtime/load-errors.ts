import { AppError, toAppError } from '@shared/errors';

const UNKNOWN_ARCH = /unknown model architecture:\s*'([^']+)'/i;
const DAMAGED =
  /not within the file bounds|corrupted or incomplete|failed to read|unexpectedly reached end of file|invalid magic|gguf_init|tensor data is not|wrong number of tensors|key not found/i;

/**
 * Why a model did not load, in words a person can act on. `log` holds llama.cpp's error lines written during the
 * load: node-llama-cpp's own error only says "Failed to load model".
 */
export function loadError(
  e: unknown,
  ctx: { name: string; contextSize?: number; log: string[]; stage: 'model' | 'context' },
): AppError {
  if (e instanceof AppError) return e;
  const err = e as (Error & { code?: string }) | undefined;
  const text = [...ctx.log, err?.message ?? String(e)].join('\n');
  if (err?.code === 'ENOENT')
    return new AppError('not_found', `${ctx.name} is no longer on disk: it was moved or deleted.`);
  const arch = UNKNOWN_ARCH.exec(text);
  if (arch)
    return new AppError(
      'invalid_input',
      `llama.cpp does not know the architecture '${arch[1]}' of this file, so ${ctx.name} cannot run in the built-in engine.`,
    );
  if (
    err?.name === 'InsufficientMemoryError' ||
    /insufficient memory|too large for the available|out of memory|failed to allocate|unable to allocate/i.test(text)
  ) {
    const at = ctx.contextSize ? ` at ${ctx.contextSize} tokens of context` : '';
    return new AppError(
      'unavailable',
      `Not enough memory for ${ctx.name}${at}: try a shorter context or fewer GPU layers.`,
    );
  }
  if (ctx.stage === 'model' && DAMAGED.test(text))
    return new AppError(
      'invalid_input',
      `${ctx.name} is truncated or damaged (${lastLine(ctx.log) ?? 'llama.cpp could not read it'}): download it again.`,
    );
  const why = lastLine(ctx.log) ?? toAppError(e).message;
  return new AppError('upstream', `llama.cpp could not load ${ctx.name}: ${why}`);
}

/** llama.cpp's most telling line, without its function-name prefix. */
function lastLine(log: string[]): string | undefined {
  const line = log.find((l) => /error/i.test(l)) ?? log.at(-1);
  return line?.replace(/^[a-z_]+:\s*/i, '').replace(/^error loading model:\s*/i, '');
}
