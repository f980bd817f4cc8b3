import { endpointSettings, secretNames, type EndpointSetting, type SecretName } from './contract/settings';

interface Row {
  name: string;
  /** What it sets, in a few words (the CLI's --help). */
  about: string;
  /** The value in use without it. */
  default?: string;
}
/** Fills an endpoint setting where the user has not set one (and so binds that setting's key to its origin). */
type SettingRow = Row & { setting: EndpointSetting; default: string };
/** Holds a secret. */
type SecretRow = Row & { secret: SecretName };
type EnvVar = Row | SettingRow | SecretRow;

/**
 * Every environment variable HubDesk reads, written once: the settings, the secret store, the key bindings, the
 * CLI's --help and the Settings page take names and defaults from here, and a test holds the README to it.
 */
export const envVars = [
  { name: 'OLLAMA_HOST', setting: 'ollamaHost', about: 'the Ollama server', default: 'http://127.0.0.1:11434' },
  { name: 'HF_ENDPOINT', setting: 'hubEndpoint', about: 'the Hugging Face Hub', default: 'https://huggingface.co' },
  {
    name: 'HUBDESK_ROUTER_URL',
    setting: 'routerUrl',
    about: 'the inference router',
    default: 'https://router.huggingface.co',
  },
  { name: 'HUBDESK_FAL_REST_BASE', setting: 'falRestBase', about: "fal's REST API", default: 'https://rest.fal.ai' },
  { name: 'HF_TOKEN', secret: 'hfToken', about: 'your Hugging Face token' },
  { name: 'FAL_KEY', secret: 'falKey', about: 'your fal key' },
  { name: 'OLLAMA_API_KEY', secret: 'ollamaApiKey', about: 'your Ollama API key (web search in chat)' },
  { name: 'HUBDESK_PROXY', secret: 'proxy', about: 'a proxy for HubDesk alone (http://user:password@host:port)' },
  { name: 'HTTPS_PROXY', about: 'the proxy for https:// calls' },
  { name: 'HTTP_PROXY', about: 'the proxy for http:// calls' },
  { name: 'ALL_PROXY', about: 'the proxy for calls the two above do not cover' },
  { name: 'NO_PROXY', about: 'hosts reached directly, never through the proxy (loopback always is)' },
  { name: 'NODE_EXTRA_CA_CERTS', about: "a PEM file of extra certificate authorities (a company's)" },
  { name: 'HUBDESK_OLLAMA_WEB_BASE', about: "Ollama's web search API", default: 'https://ollama.com' },
  { name: 'HUBDESK_DATA_DIR', about: 'where settings, chats, cache and logs live', default: "the platform's app data" },
  { name: 'HUBDESK_ENDPOINTS', about: 'OpenAI-compatible endpoints, a JSON array' },
  { name: 'HUBDESK_LOCAL_SERVER_KEY', about: "the key the built-in engine's local server asks for" },
  { name: 'HF_HUB_CACHE', about: 'the Hugging Face cache whose GGUFs HubDesk runs in place', default: '$HF_HOME/hub' },
  {
    name: 'HF_HOME',
    about: "the Hugging Face home (its hub folder is the cache's default)",
    default: '~/.cache/huggingface',
  },
] as const satisfies readonly EnvVar[];
type EnvName = (typeof envVars)[number]['name'];

/** The local server's key: HubDesk reads it, and every client setup and "Open as code" snippet reads the same one. */
export const LOCAL_SERVER_KEY_ENV: EnvName = 'HUBDESK_LOCAL_SERVER_KEY';

function byKey<K extends string, R extends EnvVar>(keys: readonly K[], of: (v: EnvVar) => K | undefined) {
  return Object.fromEntries(
    keys.map((k) => {
      const row = (envVars as readonly EnvVar[]).find((v) => of(v) === k);
      // Fails on load, so in every test: each setting and secret has its variable.
      if (!row) throw new Error(`no environment variable for ${k}`);
      return [k, row];
    }),
  ) as Record<K, R>;
}

/** The variable of each endpoint setting, with the setting's default. */
export const endpointEnv = byKey<EndpointSetting, SettingRow>(endpointSettings, (v) =>
  'setting' in v ? v.setting : undefined,
);
/** The variable of each secret. */
export const secretEnv = byKey<SecretName, SecretRow>(secretNames, (v) => ('secret' in v ? v.secret : undefined));

/** One variable of the table, by its name. */
export function envVar(name: EnvName): Row {
  return (envVars as readonly EnvVar[]).find((v) => v.name === name)!;
}
