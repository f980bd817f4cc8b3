import type { ConversationMeta, ChatParams } from '@shared/contract/chat-conversation';
import type { Snippet } from '@shared/contract/snippets';
import type { Turn } from '../chat/replies/turns';
import { openAIParams, toOpenAIMessages } from './wire';

// "Open as code" for an OpenAI-compatible server (an endpoint, HubDesk's own local server): the OpenAI clients and
// curl with its base URL.

/** The chat call's parameters, one line each as `line` writes them. */
function callArgs(p: ChatParams, line: (name: string, value: unknown) => string): string {
  return Object.entries(openAIParams(p))
    .map(([k, v]) => `${line(k, v)}\n`)
    .join('');
}

/**
 * An endpoint conversation as the OpenAI clients and curl, pointed at the endpoint's base URL. The key is never
 * written: each snippet reads it from OPENAI_API_KEY (or `keyEnv`), and says so.
 */
export async function openAICode(
  meta: ConversationMeta,
  turns: Turn[],
  endpoint: { name: string; baseUrl: string; keyEnv?: string; note?: string },
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
