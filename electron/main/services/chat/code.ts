import type { Message as OllamaMessage } from 'ollama';
import type { ChatParams, ConversationMeta } from '@shared/contract/chat';
import type { Snippet } from '@shared/contract/snippets';
import { AppError } from '@shared/errors';
import type { SnippetService } from '../snippets/service';
import type { Conversation } from './conversation';
import { fitTurns, toTurns, type Turn } from './turns';

/** A conversation's parameters as Ollama's model options (the request and "Open as code" use the same). */
export function ollamaOptions(p: ChatParams): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (p.temperature !== undefined) options.temperature = p.temperature;
  if (p.top_p !== undefined) options.top_p = p.top_p;
  if (p.max_tokens !== undefined) options.num_predict = p.max_tokens;
  if (p.num_ctx !== undefined) options.num_ctx = p.num_ctx;
  if (p.seed !== undefined) options.seed = p.seed;
  if (p.stop?.length) options.stop = p.stop;
  return options;
}

/** Turns as Ollama's /api/chat takes them (tool calls with object arguments, results named by tool). */
export function toOllamaMessages(turns: Turn[]): OllamaMessage[] {
  return turns.map((t) => {
    const om: OllamaMessage = { role: t.role, content: t.content };
    if (t.images?.length) om.images = t.images;
    if (t.toolCalls?.length)
      om.tool_calls = t.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
    if (t.toolName) om.tool_name = t.toolName;
    return om;
  });
}

/** Turns as OpenAI-compatible APIs take them (tool calls with ids and JSON-string arguments). */
export function toOpenAIMessages(turns: Turn[]): Record<string, unknown>[] {
  let n = 0;
  const pending: string[] = [];
  return turns.map((t) => {
    if (t.toolCalls?.length) {
      const calls = t.toolCalls.map((c) => ({
        id: c.id ?? `call_${n++}`,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      }));
      pending.splice(0, pending.length, ...calls.map((c) => c.id));
      return { role: 'assistant', content: t.content, tool_calls: calls };
    }
    if (t.role === 'tool')
      return { role: 'tool', tool_call_id: t.toolCallId ?? pending.shift() ?? '', content: t.content };
    return { role: t.role, content: t.content };
  });
}

const clip = (t: Turn): Turn => ({ ...t, content: t.content.slice(0, 20_000) });

/**
 * "Open as code": the conversation (system prompt, parameters, messages, tool calls and results) as runnable
 * snippets — the ollama clients and curl for Ollama, the inference snippets for the router. The messages are
 * exactly what the chat request sends (`toTurns`), ending with the last user turn so running it reproduces the
 * last reply.
 */
export async function conversationCode(
  conv: Conversation,
  snippets: SnippetService,
  ollamaHost: string,
): Promise<{ snippets: Snippet[]; notice?: string }> {
  const { meta } = conv;
  if (!meta.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
  // The router request carries tool turns only while the conversation has tool sources on: the code does the same.
  const tools = meta.backend === 'ollama' || meta.toolSources.length > 0;
  const all = toTurns(meta.system.slice(0, 20_000), conv.messages, { tools }).map(clip);
  while (all.length && all.at(-1)!.role === 'assistant') all.pop();
  // The engine takes up to 50 messages: the system prompt and the most recent ones, from a user turn on.
  const fit = fitTurns(all, 50);
  if (!fit.some((t) => t.role === 'user')) fit.push({ role: 'user', content: 'Hello!' });
  return meta.backend === 'ollama' ? ollamaCode(meta, fit, ollamaHost) : routerCode(meta, fit, snippets);
}

async function ollamaCode(meta: ConversationMeta, turns: Turn[], host: string): Promise<{ snippets: Snippet[] }> {
  // The local-server templates (and their template engine) load with the first "Open as code".
  const { renderLocalServerSnippets } = await import('../snippets/local-server');
  const base = {
    model: meta.model,
    host,
    streaming: true,
    options: ollamaOptions(meta.params),
    think: meta.params.think,
  };
  // Ollama's own clients and curl take its message format; the OpenAI clients (→ /v1) take OpenAI's.
  const native = renderLocalServerSnippets({
    ...base,
    messages: toOllamaMessages(turns) as { role: string; content: string }[],
  });
  const openai = renderLocalServerSnippets({
    ...base,
    messages: toOpenAIMessages(turns) as { role: string; content: string }[],
  });
  return {
    snippets: native
      .map((s, i) => (s.client === 'openai' ? openai[i] : s))
      .filter((s) => !s.client.includes('generate')),
  };
}

async function routerCode(
  meta: ConversationMeta,
  turns: Turn[],
  snippets: SnippetService,
): Promise<{ snippets: Snippet[]; notice?: string }> {
  const p = meta.params;
  const res = await snippets.generate({
    model: {
      id: meta.model,
      pipeline_tag: 'text-generation',
      tags: ['text-generation', 'conversational'],
      ...(meta.provider !== 'auto'
        ? {
            inferenceProviderMapping: [
              {
                provider: meta.provider,
                hfModelId: meta.model,
                providerId: meta.model,
                status: 'live',
                task: 'conversational',
              },
            ],
          }
        : {}),
    },
    kinds: ['inference'],
    options: {
      provider: meta.provider || 'auto',
      streaming: true,
      // OpenAI-style messages (tool calls by id, JSON-string arguments); the library writes them out as given.
      messages: toOpenAIMessages(turns) as { role: 'system' | 'user' | 'assistant'; content: string }[],
      ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
      ...(p.max_tokens !== undefined ? { max_tokens: p.max_tokens } : {}),
      ...(p.top_p !== undefined ? { top_p: p.top_p } : {}),
    },
  });
  const section = res.sections.find((s) => s.kind === 'inference');
  if (section?.error) throw new AppError('internal', `The snippet engine failed: ${section.error}`);
  return { snippets: section?.snippets ?? [], ...(section?.notice ? { notice: section.notice } : {}) };
}
