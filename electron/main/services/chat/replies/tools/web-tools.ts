import { Ollama, type Tool } from 'ollama';
import { AppError } from '@shared/errors';
import { timeoutFetch } from '../../../http/timeout-fetch';

/** Where ollama.com's web_search / web_fetch live; tests point this at a fixture. */
export const DEFAULT_WEB_BASE = 'https://ollama.com';
/** Tool rounds per reply: the model may search and fetch at most this many times before it must answer. */
export const MAX_TOOL_ROUNDS = 4;

/** The tool definitions offered to a model with the `tools` capability when web search is on. */
export const webToolDefs: Tool[] = [
  {
    type: 'function',
    function: {
      name: 'web_search',
      description: 'Search the web for up-to-date information. Returns the most relevant results with their content.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'The search query' },
          max_results: { type: 'integer', description: 'How many results (1-10, default 5)' },
        },
        required: ['query'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'web_fetch',
      description: 'Fetch a web page by URL and return its title, text content and links.',
      parameters: {
        type: 'object',
        properties: { url: { type: 'string', description: 'The URL to fetch' } },
        required: ['url'],
      },
    },
  },
];

const MAX_RESULT_CHARS = 8_000;

/**
 * Runs a web tool with the ollama client's `webSearch` / `webFetch`. The client only talks to ollama.com,
 * so its fetch rewrites that origin to the configured base.
 */
export async function runWebTool(
  name: string,
  args: Record<string, unknown>,
  /** `apiKey`: the key bound to `base`, if any, only checked here; `fetch` (key-bound) sends it. */
  opts: { apiKey: string | undefined; base: string; fetch: typeof fetch; signal: AbortSignal },
): Promise<string> {
  const base = opts.base.replace(/\/+$/, '');
  const inner = timeoutFetch(30_000, opts.fetch);
  const client = new Ollama({
    host: base,
    fetch: (input, init) => {
      const url = String(input instanceof Request ? input.url : input).replace(/^https:\/\/ollama\.com/, base);
      return inner(url, { ...init, signal: opts.signal });
    },
  });
  const missingKey = () =>
    new AppError(
      'unauthorized',
      'Web search needs an ollama.com API key: set "Ollama API key" in Settings (or the OLLAMA_API_KEY environment variable).',
    );
  try {
    if (name === 'web_search') {
      const query = typeof args.query === 'string' ? args.query : '';
      const max = typeof args.max_results === 'number' ? Math.min(10, Math.max(1, args.max_results)) : 5;
      // The client refuses an empty query itself ("Query is required") before the key matters.
      if (query && !opts.apiKey) throw missingKey();
      const res = await client.webSearch({ query, maxResults: max });
      return JSON.stringify(res).slice(0, MAX_RESULT_CHARS);
    }
    if (name === 'web_fetch') {
      const url = typeof args.url === 'string' ? args.url : '';
      if (url && !opts.apiKey) throw missingKey();
      const res = await client.webFetch({ url });
      return JSON.stringify(res).slice(0, MAX_RESULT_CHARS);
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    const err = e as { name?: string; status_code?: number; message?: string };
    if (err.status_code === 401 || err.status_code === 403)
      throw new AppError(
        'unauthorized',
        `ollama.com refused the API key (${err.message}). Check "Ollama API key" in Settings.`,
        {
          status: err.status_code,
        },
      );
    if (err.name === 'AbortError') throw new AppError('aborted', 'Stopped.');
    throw new AppError(
      err.message === 'Query is required' || err.message === 'URL is required' ? 'invalid_input' : 'upstream',
      err.message ?? String(e),
      err.status_code ? { status: err.status_code } : {},
    );
  }
  throw new AppError('invalid_input', `Unknown tool ${name}: only web_search and web_fetch are offered.`);
}
