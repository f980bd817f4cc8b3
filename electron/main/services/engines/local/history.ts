import type { Tool } from 'ollama';
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatModelResponse } from 'node-llama-cpp';
import type { ChatFigures, ToolCall } from '@shared/contract/chat-message';
import type { Turn } from '../../chat/replies/turns';

// The neutral turns in node-llama-cpp's chat history, and its function calls back as tool calls. Type-only imports:
// this file loads nothing.

/** A tool result's text as the model reads it back: JSON when it is JSON, else the text. */
function resultOf(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}

/**
 * The history node-llama-cpp renders with the GGUF's chat template: system, user and model items; an assistant's
 * tool calls become `functionCall` items carrying the results that answered them. It ends with the model item to
 * complete: an empty one after a user turn, or the tool-calling turn itself after its results (the model goes on).
 */
export function toLlamaHistory(turns: Turn[]): ChatHistoryItem[] {
  const out: ChatHistoryItem[] = [];
  let calls: { call: ToolCall; item: ChatModelFunctionCall }[] = [];
  for (const t of turns) {
    if (t.role === 'system') out.push({ type: 'system', text: t.content });
    else if (t.role === 'user') {
      out.push({ type: 'user', text: t.content });
      calls = [];
    } else if (t.role === 'assistant') {
      const response: ChatModelResponse['response'] = t.content ? [t.content] : [];
      calls = (t.toolCalls ?? []).map((call) => {
        const item: ChatModelFunctionCall = {
          type: 'functionCall',
          name: call.name,
          params: call.rawArguments ?? call.arguments,
          result: undefined,
        };
        response.push(item);
        return { call, item };
      });
      out.push({ type: 'model', response });
    } else {
      // A result answers its call by id, else the first call still unanswered.
      const match =
        calls.find((c) => t.toolCallId && c.call.id === t.toolCallId) ??
        calls.find((c) => c.item.result === undefined && (!t.toolName || c.call.name === t.toolName));
      if (match) match.item.result = resultOf(t.content);
    }
  }
  const last = out.at(-1);
  if (last?.type !== 'model') out.push({ type: 'model', response: [] });
  return out;
}

/** The history with `text` added to its system turn (one is put first when it has none). */
export function withInstruction(history: ChatHistoryItem[], text: string): ChatHistoryItem[] {
  const [head, ...rest] = history;
  if (head?.type === 'system') return [{ type: 'system', text: `${head.text as string}\n\n${text}` }, ...rest];
  return [{ type: 'system', text }, ...history];
}

/** OpenAI function tools as node-llama-cpp's functions (their JSON-schema parameters become its grammar). */
export function toLlamaFunctions(tools: Tool[]): ChatModelFunctions {
  const fns: Record<string, ChatModelFunctions[string]> = {};
  for (const t of tools) {
    const f = t.function;
    if (!f?.name) continue;
    const params = f.parameters as { properties?: Record<string, unknown> } | undefined;
    fns[f.name] = {
      ...(f.description ? { description: f.description } : {}),
      ...(params && Object.keys(params.properties ?? {}).length ? { params: params as never } : {}),
    };
  }
  return fns;
}

/** A function call the model made, as a tool call the reply shows and runs after approval (never run here). */
export function toToolCall(fc: { functionName: string; params: unknown }, id: string): ToolCall {
  const p = fc.params;
  // A forced call cut before its JSON ended: its text as it came.
  if (typeof p === 'string') return { id, name: fc.functionName, arguments: {}, rawArguments: p };
  return p && typeof p === 'object' && !Array.isArray(p)
    ? { id, name: fc.functionName, arguments: p as Record<string, unknown> }
    : { id, name: fc.functionName, arguments: {}, ...(p === undefined ? {} : { rawArguments: JSON.stringify(p) }) };
}

/** node-llama-cpp's stop reasons in the words the other engines use. */
export function doneReason(stop: string): ChatFigures['doneReason'] {
  if (stop === 'maxTokens') return 'length';
  if (stop === 'functionCalls') return 'tool_calls';
  return 'stop';
}
