import type { ChatMessage, ChatParams, ConversationMeta } from '@shared/contract/chat';
import type { Snippet } from '@shared/contract/snippets';
import { AppError } from '@shared/errors';
import type { EndpointConnection } from '../engines/endpoint-port';
import { ollamaOptions, openAIParams, toOllamaMessages, toOpenAIMessages } from '../engines/wire';
import type { SnippetService } from '../snippets/service';
import type { Conversation } from './storage/conversation';
import { fitTurns, toTurns, type Turn } from './replies/turns';

const clip = (t: Turn): Turn => ({ ...t, content: t.content.slice(0, 20_000) });
/** The documents' context goes whole up to this (a long context's passages): the code sends what was sent. */
const MAX_CONTEXT_CHARS = 400_000;

/** The documents' context text the last reply was given (the reply after the last user message), if it had any. */
function lastReplyContext(messages: readonly ChatMessage[]): string | undefined {
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  if (lastUser < 0) return undefined;
  return messages.slice(lastUser + 1).find((m) => m.context?.text)?.context?.text;
}

/**
 * "Open as code": the conversation (system prompt, parameters, messages, tool calls and results) as runnable
 * snippets — the ollama clients and curl for Ollama, the inference snippets for the router, the OpenAI clients
 * with the endpoint's base URL for an endpoint. The messages are exactly what the chat request sends (`toTurns`),
 * ending with the last user turn so running it reproduces the last reply: with the documents' context that reply
 * was given as its second system message.
 */
export async function conversationCode(
  conv: Conversation,
  snippets: SnippetService,
  where: {
    ollamaHost: string;
    endpoint?: Pick<EndpointConnection, 'name' | 'baseUrl'>;
    /** The built-in engine's local server (its port, on or not: the code says to turn it on). */
    localServer?: { port: number };
  },
): Promise<{ snippets: Snippet[]; notice?: string }> {
  const { meta } = conv;
  if (!meta.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
  // OpenAI-protocol requests carry tool turns only while the conversation has tool sources on: the code does the same.
  const tools = meta.backend === 'ollama' || meta.toolSources.length > 0;
  const context = lastReplyContext(conv.messages)?.slice(0, MAX_CONTEXT_CHARS);
  const all = toTurns(meta.system.slice(0, 20_000), conv.messages, { tools, context }).map((t) =>
    t.role === 'system' ? t : clip(t),
  );
  while (all.length && all.at(-1)!.role === 'assistant') all.pop();
  // The engine takes up to 50 messages: the system prompt and the most recent ones, from a user turn on.
  const fit = fitTurns(all, 50);
  if (!fit.some((t) => t.role === 'user')) fit.push({ role: 'user', content: 'Hello!' });
  if (meta.backend === 'endpoint' && where.endpoint) return endpointCode(meta, fit, where.endpoint);
  if (meta.backend === 'local') return localCode(meta, fit, where.localServer?.port ?? DEFAULT_LOCAL_PORT);
  return meta.backend === 'ollama' ? ollamaCode(meta, fit, where.ollamaHost) : routerCode(meta, fit, snippets);
}

/** The chat call's parameters, one line each as `line` writes them. */
function callArgs(p: ChatParams, line: (name: string, value: unknown) => string): string {
  return Object.entries(openAIParams(p))
    .map(([k, v]) => `${line(k, v)}\n`)
    .join('');
}

/** local.json's default port, for a run that does not say which port the local server uses. */
const DEFAULT_LOCAL_PORT = 18_080;
const LOCAL_KEY_ENV = 'HUBDESK_LOCAL_SERVER_KEY';

/**
 * A built-in engine conversation as the OpenAI clients and curl against HubDesk's own local server: the model id
 * is the server's, the key comes from HUBDESK_LOCAL_SERVER_KEY (the variable HubDesk itself reads), never its value.
 */
async function localCode(
  meta: ConversationMeta,
  turns: Turn[],
  port: number,
): Promise<{ snippets: Snippet[]; notice: string }> {
  const { snippets } = await endpointCode(meta, turns, {
    name: "HubDesk's local server",
    baseUrl: `http://127.0.0.1:${port}/v1`,
    keyEnv: LOCAL_KEY_ENV,
    note: 'It must be on: in HubDesk, Local models → Built-in engine → Server (with the same key).',
  });
  return {
    snippets,
    notice: `The code talks to HubDesk's local server, which must be on (Local models → Built-in engine → Server). It reads the server's key from ${LOCAL_KEY_ENV}: HubDesk does not write keys into code.`,
  };
}

/**
 * An endpoint conversation as the OpenAI clients and curl, pointed at the endpoint's base URL. The key is never
 * written: each snippet reads it from OPENAI_API_KEY (or `keyEnv`), and says so.
 */
async function endpointCode(
  meta: ConversationMeta,
  turns: Turn[],
  endpoint: Pick<EndpointConnection, 'name' | 'baseUrl'> & { keyEnv?: string; note?: string },
): Promise<{ snippets: Snippet[]; notice: string }> {
  const { renderTemplate, formatBody } = await import('../snippets/local-server');
  const messages = toOpenAIMessages(turns);
  const body = { model: meta.model, messages, ...openAIParams(meta.params), stream: true };
  const vars = {
    name: endpoint.name,
    baseUrl: endpoint.baseUrl.replace(/\/+$/, ''),
    model: meta.model,
    streaming: true,
    keyEnv: endpoint.keyEnv ?? 'OPENAI_API_KEY',
    note: endpoint.note ?? '',
  };
  const make = (
    language: 'python' | 'js' | 'sh',
    client: string,
    title: string,
    content: string,
    install?: string,
  ) => ({
    kind: 'local-server' as const,
    language,
    client,
    title,
    content,
    ...(install ? { install } : {}),
  });
  return {
    snippets: [
      make(
        'python',
        'openai',
        `OpenAI client → ${endpoint.name}`,
        renderTemplate('python', 'openai', 'endpoint', {
          ...vars,
          messages: formatBody(messages, 'python'),
          params: callArgs(meta.params, (k, v) => `    ${k}=${formatBody(v, 'python')},`),
        }),
        'pip install openai',
      ),
      make(
        'js',
        'openai',
        `OpenAI client → ${endpoint.name}`,
        renderTemplate('js', 'openai', 'endpoint', {
          ...vars,
          messages: formatBody(messages, 'ts'),
          params: callArgs(meta.params, (k, v) => `\t${k}: ${JSON.stringify(v)},`),
        }),
        'npm install openai',
      ),
      make(
        'sh',
        'curl',
        `curl → ${endpoint.name}`,
        renderTemplate('sh', 'curl', 'endpoint', { ...vars, body: formatBody(body, 'curl') }),
      ),
    ],
    notice: `The code reads the API key of ${endpoint.name}, if it needs one, from OPENAI_API_KEY: HubDesk does not write keys into code.`,
  };
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
