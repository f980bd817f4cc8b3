import { Template } from '@huggingface/jinja';
import type { Snippet } from '@shared/contract/snippets';

/** The project's own templates, `templates/{language}/{client}/{template}.jinja`, bundled at build time. */
const sources: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob('../../../../templates/**/*.jinja', { query: '?raw', import: 'default', eager: true }) as Record<
      string,
      string
    >,
  ).map(([path, src]) => [path.replace(/^.*\/templates\//, '').replace(/\.jinja$/, ''), src]),
);

export const templateNames = (): string[] => Object.keys(sources).sort();

const compiled = new Map<string, Template>();

/** Renders one template; a missing one fails with `Template not found: {language}/{client}/{template}`. */
export function renderTemplate(
  language: string,
  client: string,
  template: string,
  vars: Record<string, unknown>,
): string {
  const key = `${language}/${client}/${template}`;
  let t = compiled.get(key);
  if (!t) {
    const src = sources[key];
    if (src === undefined) throw new Error(`Template not found: ${key}`);
    t = new Template(src);
    compiled.set(key, t);
  }
  return t
    .render(vars)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A Python literal with the library's 4-space indentation (True/False/None, JSON-escaped strings). */
function pythonLiteral(v: unknown, indent: string): string {
  const inner = indent + '    ';
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v))
    return v.length ? `[\n${v.map((x) => inner + pythonLiteral(x, inner)).join(',\n')}\n${indent}]` : '[]';
  const entries = Object.entries(v as Record<string, unknown>);
  return entries.length
    ? `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(x, inner)}`).join(',\n')}\n${indent}}`
    : '{}';
}

type BodyFormat = 'json' | 'python' | 'ts' | 'curl';

/** A JSON value as it is written in a snippet of each language; an unknown format fails with `Unsupported format`. */
export function formatBody(value: unknown, format: string): string {
  switch (format) {
    case 'json':
      return JSON.stringify(value, null, 4);
    case 'python':
      return pythonLiteral(value, '');
    case 'ts':
      return JSON.stringify(value, null, '\t');
    case 'curl':
      // Inside `-d '…'`: continuation lines one level in, single quotes closed and reopened.
      return JSON.stringify(value, null, 4)
        .split('\n')
        .map((l, i) => (i === 0 ? l : `    ${l}`))
        .join('\n')
        .replaceAll("'", "'\\''");
    default:
      throw new Error('Unsupported format');
  }
}

const defaultMessages = [{ role: 'user', content: 'What is the capital of France?' }];

interface LocalServerVars {
  /** The Ollama model name, e.g. `hf.co/owner/repo:Q4_K_M`. */
  model: string;
  host: string;
  streaming: boolean;
  messages?: { role: string; content: string }[];
  /** Ollama's model options (temperature, top_p, num_predict, num_ctx, seed, stop…), written into the call. */
  options?: Record<string, unknown>;
  /** Thinking models: reason first, or answer directly. */
  think?: boolean;
}

/** What Ollama's OpenAI-compatible /v1 takes of its options: the rest (num_ctx…) has no /v1 equivalent. */
const openaiNames: Record<string, string> = {
  temperature: 'temperature',
  top_p: 'top_p',
  num_predict: 'max_tokens',
  seed: 'seed',
  stop: 'stop',
};

/** The extra arguments of a chat call, one per line, as each client spells them (empty when there are none). */
function callParams(v: LocalServerVars, language: string, client: string): string {
  const py = language === 'python';
  const indent = py ? '    ' : '\t';
  const arg = (k: string, value: unknown) =>
    py
      ? `${indent}${k}=${pythonLiteral(value, indent)},`
      : `${indent}${k}: ${JSON.stringify(value, null, '\t').replaceAll('\n', `\n${indent}`)},`;
  const lines: string[] = [];
  const options = v.options ?? {};
  if (client === 'ollama') {
    if (Object.keys(options).length) lines.push(arg('options', options));
    if (v.think !== undefined) lines.push(arg('think', v.think));
  } else {
    for (const [k, value] of Object.entries(options)) {
      if (openaiNames[k]) lines.push(arg(openaiNames[k], value));
      else
        lines.push(
          `${indent}${py ? '#' : '//'} ${k} is not available through /v1: set it with PARAMETER in a Modelfile`,
        );
    }
  }
  return lines.map((l) => `${l}\n`).join('');
}

const clients: { language: string; client: string; template: string; format: BodyFormat; title: string }[] = [
  { language: 'python', client: 'ollama', template: 'chat', format: 'python', title: 'ollama (Python)' },
  { language: 'python', client: 'openai', template: 'chat', format: 'python', title: 'OpenAI client → Ollama /v1' },
  { language: 'js', client: 'ollama', template: 'chat', format: 'ts', title: 'ollama (JavaScript)' },
  { language: 'js', client: 'openai', template: 'chat', format: 'ts', title: 'OpenAI client → Ollama /v1' },
  { language: 'sh', client: 'curl', template: 'chat', format: 'curl', title: 'curl /api/chat' },
  { language: 'sh', client: 'curl', template: 'generate', format: 'curl', title: 'curl /api/generate' },
];

const installs: Record<string, string> = {
  'python/ollama': 'pip install ollama',
  'python/openai': 'pip install openai',
  'js/ollama': 'npm install ollama',
  'js/openai': 'npm install openai',
};

/** Every local-server snippet (Ollama's own API and its OpenAI-compatible one) for a pulled model. */
export function renderLocalServerSnippets(v: LocalServerVars): Snippet[] {
  const host = v.host.replace(/\/+$/, '');
  const messages = v.messages?.length ? v.messages : defaultMessages;
  return clients.map((c) => {
    const extra = {
      ...(v.options && Object.keys(v.options).length ? { options: v.options } : {}),
      ...(v.think !== undefined ? { think: v.think } : {}),
    };
    const body =
      c.template === 'generate'
        ? { model: v.model, prompt: messages.at(-1)?.content ?? '', stream: v.streaming, ...extra }
        : { model: v.model, messages, stream: v.streaming, ...extra };
    const content = renderTemplate(c.language, c.client, c.template, {
      host,
      model: v.model,
      streaming: v.streaming,
      messages: formatBody(messages, c.format),
      body: formatBody(body, c.format),
      params: callParams(v, c.language, c.client),
    });
    const s: Snippet = {
      kind: 'local-server',
      language: c.language,
      client: c.template === 'chat' ? c.client : `${c.client} (${c.template})`,
      title: c.title,
      content,
    };
    const install = installs[`${c.language}/${c.client}`];
    if (install) s.install = install;
    return s;
  });
}
