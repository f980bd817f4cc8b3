import type {
  ChatHistoryItem,
  ChatModelFunctions,
  ChatWrapper,
  LlamaChat,
  LlamaContextSequence,
  LlamaModel,
} from 'node-llama-cpp';
import type { HostGenerate, HostGenerated, HostPiece } from '../host/protocol';
import { roomAfter } from './context-room';
import type { GrammarCache } from './grammars';
import type { OpenModel } from './open-model';

/** One reply on the sequence main chose, its pieces streamed through `emit`. */
export async function generateReply(
  e: OpenModel,
  sequence: LlamaContextSequence,
  req: HostGenerate,
  { grammars, emit, signal }: { grammars: GrammarCache; emit: (p: HostPiece) => void; signal: AbortSignal },
): Promise<HostGenerated> {
  const context = sequence.context;
  let chat = e.chats[req.slot];
  if (!chat || chat.disposed) {
    const { LlamaChat } = await import('node-llama-cpp');
    chat = e.chats[req.slot] = new LlamaChat({ contextSequence: sequence });
  }
  const o = req.options;
  // Without a limit a model that never ends would shift its context forever.
  let maxTokens = o.maxTokens ?? context.contextSize;
  if (req.fitContext) maxTokens = Math.min(maxTokens, promptRoom(chat, req, context.contextSize));
  const grammar = req.grammar ? await grammars.get(req.grammar) : undefined;
  const before = chat.sequence.tokenMeter.getState();
  const res = await chat.generateResponse(req.history as ChatHistoryItem[], {
    signal,
    stopOnAbortSignal: true,
    maxTokens,
    temperature: o.temperature,
    ...(o.topP !== undefined ? { topP: o.topP } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.stop?.length ? { customStopTriggers: o.stop } : {}),
    ...(o.noThoughts ? { budgets: { thoughtTokens: 0 } } : {}),
    ...(grammar
      ? { grammar }
      : req.functions
        ? {
            functions: req.functions as ChatModelFunctions,
            onFunctionCallParamsChunk: () => emit(['call', '', 0]),
          }
        : {}),
    onResponseChunk: (c) => {
      if (!c.text) return;
      const tokens = c.tokens.length;
      if (c.type === undefined) emit(['text', c.text, tokens]);
      else if (c.segmentType === 'thought' && !o.noThoughts) emit(['thought', c.text, tokens]);
    },
  });
  const after = chat.sequence.tokenMeter.getState();
  const trigger = res.metadata.stopReason === 'customStopTrigger' ? res.metadata.customStopTrigger : undefined;
  return {
    stopReason: signal.aborted ? 'abort' : res.metadata.stopReason,
    ...(trigger ? { stopTrigger: trigger.filter((t) => typeof t === 'string').join('') } : {}),
    functionCalls: (res.functionCalls ?? []).map((fc) => ({ functionName: fc.functionName, params: fc.params })),
    inputTokens: after.usedInputTokens - before.usedInputTokens,
    outputTokens: after.usedOutputTokens - before.usedOutputTokens,
  };
}

/**
 * How many tokens the rendered history is (the template, the functions' documentation and all): refused when it
 * leaves no room to answer, so a client is told rather than answered from a silently shortened prompt.
 */
function promptRoom(chat: LlamaChat, req: HostGenerate, contextSize: number): number {
  return roomAfter(renderedTokens(chat.chatWrapper, chat.model, req), contextSize, req.model.name);
}

/** The tokens a history renders to with the model's own template, as a reply would evaluate it. */
export async function countTokens(
  e: OpenModel,
  req: Pick<HostGenerate, 'model' | 'history' | 'functions'>,
): Promise<number> {
  if (!e.wrapper) {
    const { resolveChatWrapper } = await import('node-llama-cpp');
    e.wrapper = resolveChatWrapper(e.model);
  }
  return renderedTokens(e.wrapper, e.model, req);
}

/** The tokens `history` renders to (the template, the functions' documentation and all). */
function renderedTokens(
  wrapper: ChatWrapper,
  model: LlamaModel,
  req: Pick<HostGenerate, 'history' | 'functions'>,
): number {
  const state = wrapper.generateContextState({
    chatHistory: req.history as ChatHistoryItem[],
    ...(req.functions ? { availableFunctions: req.functions as ChatModelFunctions } : {}),
    documentFunctionParams: true,
  });
  return state.contextText.tokenize(model.tokenizer).length;
}
