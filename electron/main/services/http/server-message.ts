/**
 * The server's own words in an error body: `{error}`, `{error:{message}}`, `{message}` or `{detail}` (OpenAI,
 * llama.cpp, vLLM, LM Studio, FastAPI), or a text body's first 300 characters. Callers that show a body's text
 * decide for themselves whether it is words or a page.
 */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  const b = body as { error?: unknown; message?: unknown; detail?: unknown } | null;
  if (!b || typeof b !== 'object') return undefined;
  if (typeof b.error === 'string') return b.error;
  const inner = b.error as { message?: unknown } | undefined;
  if (inner && typeof inner.message === 'string') return inner.message;
  if (typeof b.message === 'string') return b.message;
  if (typeof b.detail === 'string') return b.detail;
  return undefined;
}
