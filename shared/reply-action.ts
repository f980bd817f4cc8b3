/**
 * What a person can do about a failed reply, carried in the error's `details.action`: pull the missing model,
 * retry, or top up Hugging Face credits. Kept free of zod: the renderer's core reads it.
 */
export type ReplyAction = { kind: 'pull'; model: string } | { kind: 'retry' } | { kind: 'billing'; url: string };

/** The action of an error that crossed the boundary, if it carries a well-formed one. */
export function replyActionOf(details: unknown): ReplyAction | undefined {
  const a = (details as { action?: Record<string, unknown> } | null | undefined)?.action;
  if (!a || typeof a !== 'object') return undefined;
  if (a.kind === 'pull' && typeof a.model === 'string' && a.model) return { kind: 'pull', model: a.model };
  if (a.kind === 'retry') return { kind: 'retry' };
  if (a.kind === 'billing' && typeof a.url === 'string' && /^https:\/\//.test(a.url))
    return { kind: 'billing', url: a.url };
  return undefined;
}
