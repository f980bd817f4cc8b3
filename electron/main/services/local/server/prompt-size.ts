import type { LocalModel } from '@shared/contract/local-models';
import type { LoadedModel } from '@shared/contract/local-engine';
import { HttpError } from './http';

/**
 * Characters one token holds at most, generously: tokenizers average 3 to 4 on English text and fewer elsewhere, so
 * a prompt of more than this many per token of the context cannot fit, whatever its language, and is refused
 * before anything is templated or tokenized (work that, for a 9 MB prompt, takes seconds of the engine host).
 */
const MAX_CHARS_PER_TOKEN = 8;

/** The context the model is loaded with, else the one it will be loaded with; undefined when neither is known. */
export function contextOf(m: LocalModel, loaded: LoadedModel[]): number | undefined {
  return loaded.find((l) => l.id === m.id)?.contextSize ?? m.plan?.contextSize;
}

/**
 * The characters of every string in `value` but images' bytes (`data:` URLs, Anthropic's base64 `data`): what the
 * template and tokenizer would have to read. Walked without recursion, so no nesting overflows the stack.
 */
export function textChars(value: unknown): number {
  let chars = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!v.startsWith('data:')) chars += v.length;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'data' && typeof x === 'string') continue;
        chars += k.length;
        stack.push(x);
      }
    }
  }
  return chars;
}

const count = (n: number) => n.toLocaleString('en-US');

/** A 400 `context_length_exceeded` when `parts` cannot fit the model's context at MAX_CHARS_PER_TOKEN. */
export function tooLongForContext(
  parts: unknown,
  contextSize: number | undefined,
  model: string,
): HttpError | undefined {
  if (!contextSize) return undefined;
  const chars = textChars(parts);
  if (chars <= contextSize * MAX_CHARS_PER_TOKEN) return undefined;
  return new HttpError(
    400,
    `The request is ${count(chars)} characters long, so at least ${count(Math.ceil(chars / MAX_CHARS_PER_TOKEN))} tokens, but ${model} has a context of ${count(contextSize)} tokens: shorten the messages or the tools, or load the model with a longer context.`,
    'invalid_request_error',
    'context_length_exceeded',
  );
}
