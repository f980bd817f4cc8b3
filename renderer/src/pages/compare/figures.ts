import type { ChatFigures } from '@shared/contract/chat-message';

const fmt = (n: number, digits = 0) => n.toLocaleString(undefined, { maximumFractionDigits: digits });
const duration = (ms: number) => (ms < 1000 ? `${fmt(ms)} ms` : `${fmt(ms / 1000, 2)} s`);

/**
 * A pane's figures in words, each whole: load time (apart: it is never in the time to first token), time to first
 * token, tokens/s and tokens.
 */
export function figureParts(f: ChatFigures | undefined, loadMs: number | undefined): string[] {
  const parts: string[] = [];
  if (loadMs !== undefined) parts.push(`load ${duration(loadMs)}`);
  if (!f) return parts;
  if (f.ttftMs !== undefined) parts.push(`first token ${duration(f.ttftMs)}`);
  if (f.tokensPerSecond !== undefined) parts.push(`${fmt(f.tokensPerSecond, 1)} tok/s`);
  if (f.evalTokens !== undefined) parts.push(`${fmt(f.evalTokens)} ${f.evalTokens === 1 ? 'token' : 'tokens'}`);
  return parts;
}
