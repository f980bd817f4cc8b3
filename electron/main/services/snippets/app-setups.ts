import type { LocalModel } from '@shared/contract/local-models';
import type { LoadedModel } from '@shared/contract/local-engine';
import type { AppSetup, AppSetups, LocalServerStatus } from '@shared/contract/local-server';
import { LOCAL_SERVER_KEY_ENV } from '@shared/environment';
import { renderTemplate } from './local-server';

// "Use from another app": each app's setup for one local model through HubDesk's local server. Pure: the facts
// (address, model, context) come in, text goes out. The key is never an input: every setup reads it from KEY_ENV.

/** Where every setup reads the server's key from. Zed derives it too, from the provider id `hubdesk`. */
const KEY_ENV = LOCAL_SERVER_KEY_ENV;
/** Zed names a provider's key variable after its id (`hubdesk` → HUBDESK_API_KEY). */
const ZED_KEY_ENV = 'HUBDESK_API_KEY';

/** The context typed in when the header gave no load plan (rare): a length every current chat model takes. */
const FALLBACK_CONTEXT = 4096;

/** Below this, an agent's own prompt (instructions and tool definitions) leaves too little room to work in. */
const AGENT_MIN_CONTEXT = 16_384;

const PROMPT = 'Say hello in one sentence.';

interface SetupFacts {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  model: string;
  name: string;
  contextLength: number;
}

/** A string as a shell word: bare when it is only safe characters, else single-quoted. */
function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/** JSON for a `-d '…'` argument: 4 spaces, continuation lines one level in, single quotes closed and reopened. */
function curlBody(value: unknown): string {
  return JSON.stringify(value, null, 4)
    .split('\n')
    .map((l, i) => (i === 0 ? l : `    ${l}`))
    .join('\n')
    .replaceAll("'", "'\\''");
}

/** The template variables: each value already quoted for the language it lands in. */
function vars(f: SetupFacts) {
  // A JSON string literal is also a valid Python, JavaScript and YAML (double-quoted) string literal.
  const lit = (s: string) => JSON.stringify(s);
  const origin = f.baseUrl.replace(/\/v1\/?$/, '');
  const title = `${f.name} (HubDesk)`;
  return {
    keyEnv: KEY_ENV,
    baseUrl: f.baseUrl,
    model: f.model,
    contextLength: f.contextLength,
    baseUrlPy: lit(f.baseUrl),
    baseUrlJs: lit(f.baseUrl),
    baseUrlYaml: lit(f.baseUrl),
    baseUrlSh: shellWord(f.baseUrl),
    originSh: shellWord(origin),
    modelPy: lit(f.model),
    modelJs: lit(f.model),
    modelYaml: lit(f.model),
    modelSh: shellWord(f.model),
    titleYaml: lit(title),
    promptPy: lit(PROMPT),
    promptJs: lit(PROMPT),
    body: curlBody({ model: f.model, messages: [{ role: 'user', content: PROMPT }] }),
  };
}

/** A caveat for agents whose own prompt needs more context than this model is served with. */
function agentNote(app: string, ctx: number): string | undefined {
  return ctx < AGENT_MIN_CONTEXT
    ? `${app} sends its own instructions and tools with every request, many thousand tokens: ${ctx} tokens of context is likely too short. Load the model with a longer context length first (Local models → Built-in engine → Load).`
    : undefined;
}

/** Zed's `settings.json` block: an OpenAI-compatible provider whose id `hubdesk` names its key variable. */
function zedSettings(f: SetupFacts): string {
  const settings = {
    language_models: {
      openai_compatible: {
        hubdesk: {
          api_url: f.baseUrl,
          available_models: [{ name: f.model, display_name: `${f.name} (HubDesk)`, max_tokens: f.contextLength }],
        },
      },
    },
  };
  return JSON.stringify(settings, null, 2);
}

/**
 * VS Code's `chatLanguageModels.json` entry for the Custom Endpoint provider. Input and output share the context
 * window (VS Code adds them up): a quarter of it, at most 4096 tokens, is kept for the answer.
 */
function vscodeModels(f: SetupFacts): string {
  const maxOutputTokens = Math.min(4096, Math.floor(f.contextLength / 4));
  const provider = {
    name: 'HubDesk',
    vendor: 'customendpoint',
    apiType: 'chat-completions',
    models: [
      {
        id: f.model,
        name: `${f.name} (HubDesk)`,
        url: `${f.baseUrl}/chat/completions`,
        toolCalling: true,
        vision: false,
        maxInputTokens: f.contextLength - maxOutputTokens,
        maxOutputTokens,
      },
    ],
  };
  return JSON.stringify([provider], null, 2);
}

const optional = <K extends string, V>(key: K, v: V | undefined) =>
  (v === undefined ? {} : { [key]: v }) as Partial<Record<K, V>>;

/** Every app's setup, filled for one model. */
export function renderAppSetups(f: SetupFacts): AppSetup[] {
  const v = vars(f);
  const render = (language: string, client: string) => renderTemplate(language, client, 'setup', v);
  return [
    {
      id: 'openai-python',
      title: 'OpenAI SDK (Python)',
      language: 'python',
      file: 'hubdesk_chat.py',
      install: 'pip install openai',
      content: render('python', 'openai'),
    },
    {
      id: 'openai-js',
      title: 'OpenAI SDK (JavaScript)',
      language: 'js',
      file: 'hubdesk-chat.mjs',
      install: 'npm install openai',
      content: render('js', 'openai'),
    },
    {
      id: 'ai-sdk',
      title: 'Vercel AI SDK',
      language: 'js',
      file: 'hubdesk-ai-sdk.mjs',
      install: 'npm install ai @ai-sdk/openai-compatible',
      content: render('js', 'ai-sdk'),
    },
    {
      id: 'langchain',
      title: 'LangChain (Python)',
      language: 'python',
      file: 'hubdesk_langchain.py',
      install: 'pip install langchain-openai',
      content: render('python', 'langchain'),
    },
    {
      id: 'continue',
      title: 'Continue',
      language: 'yaml',
      file: 'config.yaml',
      steps: [
        'Open Continue’s config (~/.continue/config.yaml; in Continue: the model picker → the gear). A config that already has name, version and schema takes only the entry under models.',
        `Put the key in ~/.continue/.env, where Continue reads \${{ secrets.${KEY_ENV} }} from: ${KEY_ENV}=<your server key>.`,
      ],
      content: render('yaml', 'continue'),
    },
    {
      id: 'cline',
      title: 'Cline',
      language: 'text',
      steps: [
        'Open Cline’s settings (the gear in its panel) → API Configuration.',
        'Fill in the fields below; paste the key yourself (Cline keeps it in VS Code’s secret storage).',
      ],
      content: render('text', 'cline'),
      ...optional('note', agentNote('Cline', f.contextLength)),
    },
    {
      id: 'open-webui',
      title: 'Open WebUI',
      language: 'sh',
      steps: [
        `Open WebUI on this machine (pip install open-webui, then open-webui serve): Admin Panel → Settings → Connections → OpenAI API → + → URL ${f.baseUrl}, Key: your server key → Save; then choose ${f.model} in its model list.`,
        `In Docker, 127.0.0.1 is the container itself, not this machine. host.docker.internal does not reach HubDesk either: its server listens on 127.0.0.1 only and answers requests addressed to 127.0.0.1 or localhost. On Linux, run the container on the host’s network (below).`,
        'Open WebUI reads these variables on its first start only; change the connection later in Admin Panel → Settings → Connections.',
      ],
      content: render('sh', 'open-webui'),
    },
    {
      id: 'zed',
      title: 'Zed',
      language: 'json',
      file: 'settings.json',
      steps: [
        'Open Zed’s settings (zed: open settings) and merge this in.',
        `Zed reads the key from ${ZED_KEY_ENV} (named after the provider id hubdesk): start it as ${ZED_KEY_ENV}="$${KEY_ENV}" zed, or paste the key in Agent Settings → LLM Providers → hubdesk.`,
      ],
      content: zedSettings(f),
    },
    {
      id: 'vscode-copilot',
      title: 'VS Code (Copilot, your own key)',
      language: 'json',
      file: 'chatLanguageModels.json',
      steps: [
        'Command Palette → Chat: Manage Language Models → Add Models → Custom Endpoint.',
        'Group name HubDesk; paste your server key as the API key (VS Code keeps it as a secret and writes a reference to it into the file); API type: Chat Completions.',
        'In the chatLanguageModels.json it opens, set the models as below, keep the apiKey line VS Code wrote, and save.',
      ],
      content: vscodeModels(f),
      ...optional('note', agentNote('Copilot’s agent mode', f.contextLength)),
    },
    {
      id: 'claude-code',
      title: 'Claude Code',
      language: 'sh',
      steps: [
        `Run this in the shell you start Claude Code from, with ${KEY_ENV} set; /status in Claude Code shows the base URL it uses.`,
      ],
      content: render('sh', 'claude-code'),
      ...optional('note', agentNote('Claude Code', f.contextLength)),
    },
    {
      id: 'curl',
      title: 'curl',
      language: 'sh',
      file: 'hubdesk-chat.sh',
      content: render('sh', 'curl'),
    },
  ];
}

/**
 * The setups for a chat model, with the facts they were filled with: the server's address (its port while off),
 * and the context the model is served with (loaded now, else the load plan's: trained length capped by what fits).
 */
export function appSetups(m: LocalModel, loaded: LoadedModel | undefined, server: LocalServerStatus): AppSetups {
  const baseUrl = server.url ?? `http://127.0.0.1:${server.port}/v1`;
  const [contextLength, contextFrom] = loaded
    ? [loaded.contextSize, 'loaded' as const]
    : m.plan
      ? [m.plan.contextSize, 'plan' as const]
      : [FALLBACK_CONTEXT, 'default' as const];
  const name = m.title || m.name;
  return {
    model: m.id,
    name,
    baseUrl,
    keyEnv: KEY_ENV,
    contextLength,
    contextFrom,
    running: server.running,
    setups: renderAppSetups({ baseUrl, model: m.id, name, contextLength }),
  };
}
