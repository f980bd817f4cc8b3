import { snippets as inferenceSnippets, setLogger, INFERENCE_PROVIDERS } from '@huggingface/inference';
import {
  getModelInputSnippet,
  LOCAL_APPS,
  MODEL_LIBRARIES_UI_ELEMENTS,
  parseGGUFQuantLabel,
  type LocalAppSnippet,
  type ModelData,
} from '@huggingface/tasks';
import type {
  ProviderChoice,
  Snippet,
  SnippetKind,
  SnippetOptions,
  SnippetSection,
  SnippetsResult,
} from '@shared/contract/snippets';
import type { ModelRecord } from '@shared/model-record';
import { defaultQuant } from '@shared/fit';
import { ggufQuants } from '../hub/gguf';
import type { Logger } from '../log';
import { renderLocalServerSnippets } from './local-server';
import { quoteCurlBody } from './shell-quoting';
import { Lru } from '@shared/lru';

type InferenceArgs = Parameters<typeof inferenceSnippets.getInferenceSnippets>;
type MappingEntry = NonNullable<InferenceArgs[2]>;

/** What the library reads from a model: the record as the Hub sends it, with `tags` always present. */
export function toModelData(model: ModelRecord): ModelData {
  return { ...model, tags: model.tags ?? [], inference: '' } as unknown as ModelData;
}

/** The options object handed to getInferenceSnippets: only the keys the user set; `inputs` JSON-encoded. */
function libraryOptions(o: SnippetOptions, accessToken?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.streaming) out.streaming = true;
  if (o.billTo) out.billTo = o.billTo;
  if (accessToken) out.accessToken = accessToken;
  if (o.directRequest) out.directRequest = true;
  if (o.endpointUrl) out.endpointUrl = o.endpointUrl;
  if (o.inputs !== undefined && o.inputs !== '') out.inputs = JSON.stringify(o.inputs);
  if (o.messages?.length) out.messages = o.messages;
  if (o.temperature !== undefined) out.temperature = o.temperature;
  if (o.max_tokens !== undefined) out.max_tokens = o.max_tokens;
  if (o.top_p !== undefined) out.top_p = o.top_p;
  return out;
}

/** hf-inference, auto, then every provider of the model's mapping (with its status). */
function providerChoices(model: ModelRecord): ProviderChoice[] {
  const out: ProviderChoice[] = [{ id: 'hf-inference' }, { id: 'auto' }];
  for (const e of model.inferenceProviderMapping ?? []) {
    const existing = out.find((p) => p.id === e.provider);
    if (existing) Object.assign(existing, { status: e.status, providerId: e.providerId });
    else out.push({ id: e.provider, status: e.status, providerId: e.providerId });
  }
  return out;
}

function mappingEntry(model: ModelRecord, provider: string): MappingEntry | undefined {
  return model.inferenceProviderMapping?.find((e) => e.provider === provider) as MappingEntry | undefined;
}

const installs: Record<string, string> = {
  'python/huggingface_hub': 'pip install --upgrade huggingface_hub',
  'python/openai': 'pip install openai',
  'python/requests': 'pip install requests',
  'python/fal_client': 'pip install fal-client',
  'python/ollama': 'pip install ollama',
  'js/huggingface.js': 'npm install @huggingface/inference',
  'js/openai': 'npm install openai',
  'js/ollama': 'npm install ollama',
};
const installFor = (language: string, client: string): string | undefined => installs[`${language}/${client}`];

/** A repo of local weights only (GGUF, MLX): the Hub maps no provider to these unless it says so. */
function isLocalWeights(model: ModelRecord): boolean {
  const lib = model.library_name ?? '';
  return ['gguf', 'mlx'].includes(lib) || model.tags.includes('gguf') || model.tags.includes('mlx');
}

/**
 * Why the inference code for this provider will not work as it is, when known: the model's provider mapping (or,
 * for GGUF/MLX repos, its absence) says no provider serves it. Undefined when a provider does, or nothing is known.
 */
export function unservedWarning(model: ModelRecord, provider: string): string | undefined {
  const mapping = model.inferenceProviderMapping;
  if (mapping === undefined && !isLocalWeights(model)) return undefined;
  const live = (mapping ?? []).filter((e) => e.status === 'live');
  if (live.length === 0)
    return `No inference provider serves ${model.id}: this code shows how a call would look, but it will fail until a provider serves the model. Run it locally instead (Local apps, Local server).`;
  if (provider !== 'auto' && !live.some((e) => e.provider === provider))
    return `${provider} does not serve ${model.id}: this code will fail. Providers that do: ${live.map((e) => e.provider).join(', ')}.`;
  return undefined;
}

function inferenceSection(model: ModelRecord, provider: string, opts: Record<string, unknown>): SnippetSection {
  const pair = `task "${model.pipeline_tag ?? 'none'}" with provider "${provider}"`;
  const warning = unservedWarning(model, provider);
  try {
    const list = inferenceSnippets.getInferenceSnippets(
      toModelData(model) as InferenceArgs[0],
      provider as InferenceArgs[1],
      mappingEntry(model, provider),
      opts,
    );
    if (list.length === 0)
      return {
        kind: 'inference',
        snippets: [],
        notice: `No inference snippets for ${pair}.`,
        ...(warning ? { warning } : {}),
      };
    return {
      kind: 'inference',
      ...(warning ? { warning } : {}),
      snippets: list.map((s) => {
        const out: Snippet = { kind: 'inference', language: s.language, client: s.client, content: s.content };
        const install = installFor(s.language, s.client);
        if (install) out.install = install;
        return s.language === 'sh' ? quoteCurlBody(out) : out;
      }),
    };
  } catch (e) {
    return {
      kind: 'inference',
      snippets: [],
      error: `${(e as Error).message || String(e)} (${pair})`,
      ...(warning ? { warning } : {}),
    };
  }
}

const shellLine =
  /^(pip3?|npm|npx|git|curl|wget|brew|docker|hf|huggingface-cli|python3? -m|uv|conda|ollama|cortiq|mlagents-[\w-]+)\b/;

/** Library snippets carry no language: classify by content (shell commands, JavaScript, otherwise Python). */
function guessLanguage(library: string, content: string): string {
  if (library === 'transformers.js') return 'js';
  const lines = content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (lines.length > 0 && lines.every((l) => shellLine.test(l) || l.endsWith('\\') || l.startsWith('--'))) return 'sh';
  return 'python';
}

function librarySection(model: ModelRecord): SnippetSection {
  const lib = model.library_name;
  if (!lib) return { kind: 'library', snippets: [], notice: 'This model names no library.' };
  const ui = (MODEL_LIBRARIES_UI_ELEMENTS as Record<string, { snippets?: (m: ModelData) => string[] }>)[lib];
  if (!ui?.snippets) return { kind: 'library', snippets: [], notice: `No library snippets for "${lib}".` };
  try {
    const list = ui.snippets(toModelData(model)).filter((s) => s.trim() !== '');
    if (list.length === 0) return { kind: 'library', snippets: [], notice: `No library snippets for "${lib}".` };
    return {
      kind: 'library',
      snippets: list.map((content, i) => ({
        kind: 'library',
        language: guessLanguage(lib, content),
        client: list.length > 1 ? `${lib} (${i + 1})` : lib,
        content,
      })),
    };
  } catch (e) {
    return { kind: 'library', snippets: [], error: `${lib}: ${(e as Error).message || String(e)}` };
  }
}

/** A GGUF file path for the quant picked on the model page, so the apps fill `<repo>:<quant>`. */
function ggufFileFor(model: ModelRecord, quant?: string): string | undefined {
  if (!quant) return undefined;
  const file = model.siblings?.find((s) => s.rfilename.endsWith('.gguf') && parseGGUFQuantLabel(s.rfilename) === quant);
  return file?.rfilename ?? `${model.id.split('/').pop()}-${quant}.gguf`;
}

/**
 * The quant when the caller chose none (no hardware known): the repo's Q4_K_M, else its smallest; undefined when
 * the repo has no GGUF quantizations. The page and the CLI pass the fit-based default instead.
 */
export function fallbackQuant(model: ModelRecord): string | undefined {
  return defaultQuant(ggufQuants(model.siblings));
}

/**
 * The apps write `{{QUANT_TAG}}` / `{{GGUF_FILE}}` where they were given no file (vLLM's "Use Docker" never is):
 * filled with the chosen quant and its file, as huggingface.co fills them. With no quant known, a tag is left out
 * with its separator (the app picks its default quant) and a snippet that needs a file name is dropped, so no
 * placeholder ever reaches the user.
 */
export function fillPlaceholders(list: Snippet[], known: { quant?: string; file?: string }): Snippet[] {
  const fill = (text: string) => {
    const tagged = known.quant
      ? text.replaceAll('{{QUANT_TAG}}', known.quant)
      : text.replace(/[:-]?\{\{QUANT_TAG\}\}/g, '');
    return known.file ? tagged.replaceAll('{{GGUF_FILE}}', known.file) : tagged;
  };
  return list
    .map((s) => ({ ...s, content: fill(s.content), ...(s.setup === undefined ? {} : { setup: fill(s.setup) }) }))
    .filter((s) => !/\{\{[A-Z_]+\}\}/.test(s.content) && !/\{\{[A-Z_]+\}\}/.test(s.setup ?? ''));
}

function normaliseAppSnippet(raw: string | string[] | LocalAppSnippet | LocalAppSnippet[]) {
  const items: (string | LocalAppSnippet)[] = Array.isArray(raw) ? raw : [raw];
  return items.map((it) =>
    typeof it === 'string'
      ? { title: undefined, setup: undefined, content: it }
      : {
          title: it.title,
          setup: it.setup,
          content: Array.isArray(it.content) ? it.content.join('\n') : it.content,
        },
  );
}

/** One local app's output for a model: its snippets (normalised) or its deeplink. Throws what the app throws. */
export function runLocalApp(
  key: string,
  model: ModelRecord,
  filepath?: string,
): { snippets: Snippet[]; deeplink?: SnippetsResult['deeplinks'][number] } {
  const app = (LOCAL_APPS as Record<string, (typeof LOCAL_APPS)[keyof typeof LOCAL_APPS]>)[key];
  if (!app) throw new Error(`Unknown local app: ${key}`);
  const data = toModelData(model);
  if ('deeplink' in app)
    return { snippets: [], deeplink: { app: key, label: app.prettyLabel, url: String(app.deeplink(data, filepath)) } };
  return {
    snippets: normaliseAppSnippet(app.snippet(data, filepath)).map((s) => {
      const out: Snippet = { kind: 'local-app', language: 'sh', client: key, content: s.content };
      out.title = s.title ? `${app.prettyLabel}: ${s.title}` : app.prettyLabel;
      if (s.setup) out.setup = s.setup;
      return out;
    }),
  };
}

function localAppSection(
  model: ModelRecord,
  quant: string | undefined,
  log?: Logger,
): {
  section: SnippetSection;
  deeplinks: SnippetsResult['deeplinks'];
} {
  const data = toModelData(model);
  const chosen = quant ?? fallbackQuant(model);
  const filepath = ggufFileFor(model, chosen);
  const snippets: Snippet[] = [];
  const deeplinks: SnippetsResult['deeplinks'] = [];
  for (const [key, app] of Object.entries(LOCAL_APPS)) {
    try {
      if (!app.displayOnModelPage(data)) continue;
      const r = runLocalApp(key, model, filepath);
      if (r.deeplink) deeplinks.push(r.deeplink);
      snippets.push(...fillPlaceholders(r.snippets, { quant: chosen, file: filepath }));
    } catch (e) {
      log?.warn('local app snippet failed', { app: key, message: (e as Error).message });
    }
  }
  const section: SnippetSection = { kind: 'local-app', snippets };
  if (snippets.length === 0)
    section.notice = deeplinks.length
      ? 'The local apps for this model open by link: use the buttons.'
      : 'No local app runs this model (they need GGUF weights or a supported architecture).';
  return { section, deeplinks };
}

function localServerSection(model: ModelRecord, quant: string | undefined, o: SnippetOptions, host: string) {
  const data = toModelData(model);
  if (!LOCAL_APPS.ollama.displayOnModelPage(data))
    return {
      kind: 'local-server' as const,
      snippets: [],
      notice: 'Ollama pulls GGUF models: this model has no GGUF weights.',
    };
  const q = quant ?? fallbackQuant(model);
  const name = `hf.co/${model.id}${q ? `:${q}` : ''}`;
  return {
    kind: 'local-server' as const,
    snippets: renderLocalServerSnippets({ model: name, host, streaming: !!o.streaming, messages: o.messages }),
  };
}

interface GenerateArgs {
  model: ModelRecord;
  quant?: string;
  kinds?: SnippetKind[];
  options?: SnippetOptions;
  /** Written literally into the inference snippets (Insert my token / a temporary fal token). */
  accessToken?: string;
  /** Ollama host the local-server snippets talk to. */
  ollamaHost?: string;
}

/**
 * The snippet engine: the libraries' own generators, wrapped so a failing one shows its message
 * in its pane, cached by model, provider and options. Plain Node; the app, the CLI and benchmarks use it.
 */
export class SnippetEngine {
  // The same model record, provider and options always give the same snippets: keep them.
  private cache = new Lru<SnippetsResult>(500);

  constructor(private readonly log?: Logger) {
    if (log) routeLibraryLogs(log);
  }

  get cacheSize(): number {
    return this.cache.size;
  }

  clearCache(): void {
    this.cache.clear();
  }

  generate(args: GenerateArgs): SnippetsResult {
    const options = args.options ?? {};
    const provider = options.provider || 'hf-inference';
    // A result holding a real token is never kept.
    const key = args.accessToken
      ? undefined
      : JSON.stringify([args.model, args.quant, args.kinds, options, provider, args.ollamaHost]);
    if (key) {
      const hit = this.cache.get(key);
      if (hit) return hit;
    }
    const kinds = args.kinds ?? ['inference', 'library', 'local-app', 'local-server'];
    const sections: SnippetSection[] = [];
    let deeplinks: SnippetsResult['deeplinks'] = [];
    for (const kind of kinds) {
      switch (kind) {
        case 'inference':
          sections.push(inferenceSection(args.model, provider, libraryOptions(options, args.accessToken)));
          break;
        case 'library':
          sections.push(librarySection(args.model));
          break;
        case 'local-app': {
          const r = localAppSection(args.model, args.quant, this.log);
          sections.push(r.section);
          deeplinks = r.deeplinks;
          break;
        }
        case 'local-server':
          sections.push(
            localServerSection(args.model, args.quant, options, args.ollamaHost ?? 'http://127.0.0.1:11434'),
          );
          break;
        default:
          // A new kind in the contract fails to compile here until it has its section.
          throw unknownKind(kind);
      }
    }
    let sampleInput: string | undefined;
    try {
      const sample = args.model.pipeline_tag ? getModelInputSnippet(toModelData(args.model), true, true) : undefined;
      // Chat models take messages (an array): only a plain sample input fits the one-line field.
      sampleInput = typeof sample === 'string' && !sample.startsWith('No input example') ? sample : undefined;
    } catch {
      sampleInput = undefined;
    }
    const result: SnippetsResult = {
      modelId: args.model.id,
      provider,
      providers: providerChoices(args.model),
      sections,
      deeplinks,
    };
    if (sampleInput) result.sampleInput = sampleInput;
    if (key) this.cache.set(key, result);
    return result;
  }
}

/** The inference library logs through a global logger: route it into the app's log (not the console). */
function routeLibraryLogs(log: Logger): void {
  const fmt = (args: unknown[]) =>
    args.length ? { args: args.map((a) => (a instanceof Error ? a.message : String(a))) } : undefined;
  setLogger({
    debug: (m, ...a) => log.debug(`@huggingface/inference: ${m}`, fmt(a)),
    info: (m, ...a) => log.info(`@huggingface/inference: ${m}`, fmt(a)),
    log: (m, ...a) => log.info(`@huggingface/inference: ${m}`, fmt(a)),
    warn: (m, ...a) => log.warn(`@huggingface/inference: ${m}`, fmt(a)),
    error: (m, ...a) => log.warn(`@huggingface/inference: ${m}`, fmt(a)),
  });
}

export const knownProviders: readonly string[] = [...INFERENCE_PROVIDERS, 'auto'];

/** Exhaustiveness: `kind` is `never` once every SnippetKind has its case. */
function unknownKind(kind: never): Error {
  return new Error(`No snippet section for kind ${String(kind)}`);
}
