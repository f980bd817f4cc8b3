import type { LlamaCompletion, LlamaContextSequence, LlamaGrammar, Token } from 'node-llama-cpp';
import { AppError } from '@shared/errors';
import type { HostComplete, HostGenerated, HostPiece } from '../host/protocol';
import { roomAfter } from './context-room';

/**
 * A plain-text completion of `prompt` (OpenAI's /v1/completions), or fill-in-the-middle between `prompt` and `suffix`
 * with the model's own FIM tokens. The prompt is never shifted out of the context: too long is refused, and the reply
 * stops at the context's end.
 */
export async function completeText(
  completion: LlamaCompletion,
  sequence: LlamaContextSequence,
  req: HostComplete,
  run: { grammar?: LlamaGrammar; emit: (p: HostPiece) => void; signal: AbortSignal },
): Promise<HostGenerated> {
  const o = req.options;
  const model = sequence.model;
  const infill = req.suffix !== undefined;
  if (infill && !completion.infillSupported)
    throw new AppError(
      'invalid_input',
      `${req.model.name} has no fill-in-the-middle tokens: leave suffix out, or use a code model made for infilling.`,
      { details: { wireCode: 'unsupported_value' } },
    );
  const promptText = model.tokenize(req.prompt, false);
  const promptTokens = promptText.length + (infill ? model.tokenize(req.suffix!, false).length : 0);
  // node-llama-cpp reads the first piece without what came before it, which drops an SPM model's leading space
  // ("return" + "▁a" must give "return a"): that piece is read again after the prompt's last tokens.
  let first: Token[] | undefined;
  // BOS and the FIM markers: a few tokens on top of the text's.
  const room = roomAfter(promptTokens + (infill ? 4 : 1), sequence.contextSize, req.model.name);
  const before = sequence.tokenMeter.getState();
  const options = {
    signal: run.signal,
    stopOnAbortSignal: true,
    maxTokens: Math.min(o.maxTokens ?? room, room),
    temperature: o.temperature,
    disableContextShift: true,
    ...(o.topP !== undefined ? { topP: o.topP } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.stop?.length ? { customStopTriggers: o.stop } : {}),
    ...(run.grammar ? { grammar: run.grammar } : {}),
    onToken: (tokens: Token[]) => {
      first ??= tokens;
    },
    onTextChunk: (chunk: string) => {
      const text = first?.length ? model.detokenize(first, false, promptText.slice(-8)) : chunk;
      first = [];
      if (text) run.emit(['text', text, 1]);
    },
  };
  const res = infill
    ? await completion.generateInfillCompletionWithMeta(req.prompt, req.suffix!, options)
    : await completion.generateCompletionWithMeta(req.prompt, options);
  const after = sequence.tokenMeter.getState();
  const m = res.metadata;
  const trigger = m.stopReason === 'customStopTrigger' ? m.customStopTrigger : undefined;
  return {
    stopReason: run.signal.aborted ? 'abort' : m.stopReason,
    ...(trigger ? { stopTrigger: trigger.filter((t) => typeof t === 'string').join('') } : {}),
    functionCalls: [],
    inputTokens: after.usedInputTokens - before.usedInputTokens,
    outputTokens: after.usedOutputTokens - before.usedOutputTokens,
  };
}
