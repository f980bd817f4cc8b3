import type { ChatResponse } from 'ollama';
import type { ChatFigures } from '@shared/contract/chat-message';
import type { LlamaTimings } from './openai-stream';

/** When the request left, and when its first text, thinking or tool call came back (performance.now()). */
interface Clock {
  started: number;
  firstToken?: number;
  end: number;
}

const ttft = (c: Clock): Partial<ChatFigures> =>
  c.firstToken === undefined ? {} : { ttftMs: c.firstToken - c.started };

/** Ollama's last line: its own counts and durations (nanoseconds), and the time to first token measured here. */
export function ollamaFigures(part: ChatResponse, clock: Clock): ChatFigures {
  const f: ChatFigures = { source: 'server', ...ttft(clock) };
  if (part.prompt_eval_count) f.promptTokens = part.prompt_eval_count;
  if (part.prompt_eval_count && part.prompt_eval_duration)
    f.promptTokensPerSecond = part.prompt_eval_count / (part.prompt_eval_duration / 1e9);
  if (part.eval_count) f.evalTokens = part.eval_count;
  if (part.eval_count && part.eval_duration) f.tokensPerSecond = part.eval_count / (part.eval_duration / 1e9);
  if (part.load_duration) f.loadMs = part.load_duration / 1e6;
  if (part.total_duration) f.totalMs = part.total_duration / 1e6;
  if (part.done_reason) f.doneReason = part.done_reason;
  return f;
}

/**
 * An OpenAI-protocol reply's figures: llama.cpp's `timings` when the server sent them (source `server`), else the
 * `usage` counts with the speeds measured here from the stream's timing (source `measured`): generation from the
 * first token to the end, prompt processing as the prompt over the time to first token. The time to first token
 * and the total are always measured here, from the request.
 */
export function openAIFigures(
  r: { usage?: { prompt_tokens?: number; completion_tokens?: number }; timings?: LlamaTimings; finishReason?: string },
  clock: Clock,
): ChatFigures {
  const f: ChatFigures = { ...ttft(clock), totalMs: clock.end - clock.started };
  if (r.finishReason) f.doneReason = r.finishReason;
  const t = r.timings;
  if (t && (t.predicted_per_second || t.prompt_per_second)) {
    f.source = 'server';
    if (t.prompt_n) f.promptTokens = t.prompt_n;
    if (t.predicted_n) f.evalTokens = t.predicted_n;
    if (t.prompt_per_second) f.promptTokensPerSecond = t.prompt_per_second;
    if (t.predicted_per_second) f.tokensPerSecond = t.predicted_per_second;
    return f;
  }
  f.source = 'measured';
  const prompt = r.usage?.prompt_tokens;
  const generated = r.usage?.completion_tokens;
  if (prompt) f.promptTokens = prompt;
  if (generated) f.evalTokens = generated;
  const first = clock.firstToken;
  if (first === undefined) return f;
  // The first token is one of the generated ones; the rest came after it.
  if (generated && generated > 1 && clock.end > first)
    f.tokensPerSecond = (generated - 1) / ((clock.end - first) / 1000);
  if (prompt && first > clock.started) f.promptTokensPerSecond = prompt / ((first - clock.started) / 1000);
  return f;
}

/**
 * A reply that ended before its last chunk (stopped, or failed mid-stream), whose server never sent its counts:
 * what main measured of the stream up to there, each streamed part counted as a token (local servers and Ollama send
 * one per chunk), labelled measured. Undefined when nothing arrived.
 */
export function partialFigures(parts: number, clock: Clock): ChatFigures | undefined {
  if (!parts) return undefined;
  const f: ChatFigures = { source: 'measured', ...ttft(clock), evalTokens: parts, totalMs: clock.end - clock.started };
  const first = clock.firstToken;
  if (parts > 1 && first !== undefined && clock.end > first)
    f.tokensPerSecond = (parts - 1) / ((clock.end - first) / 1000);
  return f;
}
