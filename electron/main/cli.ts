import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hardwareOverrideSchema, type HardwareOverride } from '@shared/contract/hardware';
import { snippetKinds, snippetOptionsSchema, type Snippet, type SnippetKind } from '@shared/contract/snippets';
import { AppError } from '@shared/errors';
import { modelRecordSchema, type ModelRecord } from '@shared/model-record';
import { CatalogueService } from './services/catalogue/service';
import { defaultDataDir } from './services/data-dir';
import { HubClient } from './services/hub/client';
import { HubService, toModelRecord } from './services/hub/service';
import { createLogger, type Logger } from './services/log';
import { boundFetch } from './services/net/bound-fetch';
import { KeyBindings } from './services/net/key-bindings';
import { SecretStoreImpl } from './services/secrets';
import { normalizeOllamaHost } from './services/settings';
import { SnippetEngine, knownProviders } from './services/snippets/engine';
import { fitDefaultQuant } from './services/fit/default-quant';
import { GgufHeaderReader } from './services/fit/gguf-header';
import { HardwareService } from './services/hardware/service';

// `hubdesk snippets …`: the snippet engine of the app, on the command line.
const USAGE = `Usage: hubdesk snippets <model-id> | --model-file <record.json> [options]

Options:
  --provider <id>        hf-inference (default), auto, or a provider such as together, fal-ai, replicate
  --lang <python|js|sh>  only snippets in this language
  --client <name>        only snippets of this client (requests, openai, huggingface_hub, curl…)
  --kind <kind>          inference | library | local-app | local-server (default: all)
  --quant <Q>            GGUF quantization for local apps and Ollama (e.g. Q4_K_M); default: the largest
                         that fits this machine fully (as the app's model page picks it), else Q4_K_M
  --stream               streaming variant
  --bill-to <org>        bill an organisation (X-HF-Bill-To)
  --endpoint-url <url>   call a custom endpoint
  --direct               call the provider directly (its own API key)
  --inputs <text>        custom sample input
  --json                 print a JSON array of {kind, language, client, title?, content}
  -h, --help             this help`;

class UsageError extends Error {}

interface CliArgs {
  modelId?: string;
  modelFile?: string;
  provider?: string;
  lang?: string;
  client?: string;
  kind?: SnippetKind;
  quant?: string;
  stream: boolean;
  billTo?: string;
  endpointUrl?: string;
  direct: boolean;
  inputs?: string;
  json: boolean;
  help: boolean;
}

const langs: Record<string, string> = {
  python: 'python',
  py: 'python',
  js: 'js',
  javascript: 'js',
  sh: 'sh',
  shell: 'sh',
  curl: 'sh',
};

export function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = { stream: false, direct: false, json: false, help: false };
  const rest = [...argv];
  if (rest[0] === 'snippets') rest.shift();
  else if (rest.length && !['-h', '--help'].includes(rest[0]))
    throw new UsageError(`unknown command "${rest[0]}" (try: hubdesk snippets <model-id>)`);
  for (let i = 0; i < rest.length; i++) {
    const raw = rest[i];
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    const value = (): string => {
      const v = eq > 0 ? raw.slice(eq + 1) : rest[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '-h':
      case '--help':
        args.help = true;
        break;
      case '--model-file':
        args.modelFile = value();
        break;
      case '--provider':
        args.provider = value();
        if (!knownProviders.includes(args.provider))
          throw new UsageError(`unknown provider "${args.provider}" (known: ${knownProviders.join(', ')})`);
        break;
      case '--lang': {
        const v = value();
        args.lang = langs[v.toLowerCase()];
        if (!args.lang) throw new UsageError(`unknown language "${v}" (python, js or sh)`);
        break;
      }
      case '--client':
        args.client = value();
        break;
      case '--kind': {
        const v = value();
        if (!(snippetKinds as readonly string[]).includes(v))
          throw new UsageError(`unknown kind "${v}" (${snippetKinds.join(', ')})`);
        args.kind = v as SnippetKind;
        break;
      }
      case '--quant':
        args.quant = value();
        break;
      case '--stream':
        args.stream = true;
        break;
      case '--bill-to':
        args.billTo = value();
        break;
      case '--endpoint-url':
        args.endpointUrl = value();
        break;
      case '--direct':
        args.direct = true;
        break;
      case '--inputs':
        args.inputs = value();
        break;
      case '--json':
        args.json = true;
        break;
      default:
        if (raw.startsWith('-')) throw new UsageError(`unknown option ${flag} (see hubdesk snippets --help)`);
        if (args.modelId) throw new UsageError(`one model at a time (got "${args.modelId}" and "${raw}")`);
        args.modelId = raw;
    }
  }
  if (!args.help && !args.modelId && !args.modelFile)
    throw new UsageError('a model id or --model-file <record.json> is required');
  if (args.modelId && args.modelFile) throw new UsageError('give a model id or --model-file, not both');
  return args;
}

function readModelFile(path: string): ModelRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new AppError(
      'invalid_input',
      code === 'ENOENT' ? `no such file: ${path}` : `${path} is not a JSON model record (${(e as Error).message})`,
    );
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || typeof (raw as { id?: unknown }).id !== 'string')
    throw new AppError('invalid_input', `${path} is not a Hub model record (it needs at least an "id")`);
  // A Hub API answer: the mapping may be an object keyed by provider; unknown fields are dropped.
  const record = toModelRecord((raw as { id: string }).id, raw as Record<string, unknown>);
  return modelRecordSchema.parse(record);
}

/** The hardware the user set in the app's Settings (same data dir), so the CLI picks what the page picks. */
function savedOverride(env: NodeJS.ProcessEnv): HardwareOverride | undefined {
  try {
    const raw = JSON.parse(readFileSync(join(defaultDataDir(env), 'settings.json'), 'utf8')) as {
      values?: { hardwareOverride?: unknown };
    };
    const parsed = hardwareOverrideSchema.safeParse(raw.values?.hardwareOverride);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const hubEndpoint = (env: NodeJS.ProcessEnv) =>
  (env.HF_ENDPOINT?.trim() || 'https://huggingface.co').replace(/\/+$/, '');

/** HF_TOKEN goes where the app would send it: huggingface.co, or the HF_ENDPOINT the environment names. */
function hubKeys(env: NodeJS.ProcessEnv, log: Logger) {
  const secrets = new SecretStoreImpl(env);
  const keys = new KeyBindings({ secrets, log, trusted: [{ key: 'hfToken', url: hubEndpoint(env) }] });
  return {
    authed: () => !!keys.forUrl('hfToken', hubEndpoint(env)),
    fetch: boundFetch('hfToken', keys, { secrets: () => secrets.values() }),
  };
}

async function resolveModel(id: string, env: NodeJS.ProcessEnv): Promise<ModelRecord> {
  const embedded = (await new CatalogueService().get()).models.find((m) => m.id === id);
  if (embedded) {
    const { tasks: _tasks, widget: _widget, ...record } = embedded;
    return record;
  }
  const log = createLogger({});
  const hub = new HubService({
    client: new HubClient({
      endpoint: () => hubEndpoint(env),
      ...hubKeys(env, log),
      cacheDir: join(defaultDataDir(env), 'cache', 'hub'),
      log,
      timeoutMs: 10_000,
      sleep: async () => {},
    }),
    // Naming a model on the command line is the consent to look it up.
    enabled: () => true,
  });
  try {
    return (await hub.model(id)).model;
  } catch (e) {
    const err = e as AppError;
    if (err.code === 'not_found') throw new AppError('not_found', `unknown model "${id}"`);
    throw new AppError(
      err.code ?? 'unavailable',
      `unknown model "${id}" (not in the embedded catalogue; ${err.message})`,
    );
  }
}

function ollamaHostFrom(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return env.OLLAMA_HOST?.trim() ? normalizeOllamaHost(env.OLLAMA_HOST) : undefined;
  } catch {
    return undefined;
  }
}

function header(s: Snippet): string {
  return `=== ${s.kind} · ${s.language} · ${s.client}${s.title ? ` · ${s.title}` : ''} ===`;
}

export async function run(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (s: string) => void,
  /** Notes for the person (stderr): never mixed into the code on stdout. */
  note: (s: string) => void = () => {},
): Promise<number> {
  const args = parseArgs(argv);
  if (args.help) {
    out(USAGE + '\n');
    return 0;
  }
  const model = args.modelFile ? readModelFile(args.modelFile) : await resolveModel(args.modelId!, env);
  const parsed = snippetOptionsSchema.safeParse({
    provider: args.provider,
    streaming: args.stream || undefined,
    billTo: args.billTo,
    endpointUrl: args.endpointUrl,
    directRequest: args.direct || undefined,
    inputs: args.inputs,
  });
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new UsageError(`--${String(i.path[0]).replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}: ${i.message}`);
  }
  const log = createLogger({});
  const engine = new SnippetEngine(log);
  // Without --quant, the same default as the model page: this machine's hardware, the repo's GGUF header.
  const quant =
    args.quant ??
    (await fitDefaultQuant(model, {
      hardware: new HardwareService({ override: () => savedOverride(env), log }),
      headers: args.modelFile
        ? undefined
        : new GgufHeaderReader({
            endpoint: () => hubEndpoint(env),
            fetch: hubKeys(env, log).fetch,
            enabled: () => true,
            log,
            timeoutMs: 10_000,
          }),
    }));
  const result = engine.generate({
    model,
    quant,
    kinds: args.kind ? [args.kind] : undefined,
    options: parsed.data,
    ollamaHost: ollamaHostFrom(env),
  });
  if (args.kind) {
    const section = result.sections[0];
    if (section.error) throw new AppError('upstream', section.error);
    if (section.snippets.length === 0 && section.notice) throw new AppError('not_found', section.notice);
  }
  const list = result.sections
    .flatMap((s) => s.snippets)
    .filter((s) => (!args.lang || s.language === args.lang) && (!args.client || s.client === args.client));
  if (list.length === 0) {
    const inference = result.sections.find((s) => s.kind === 'inference');
    const why = inference?.error ?? inference?.notice;
    const filter = [args.lang && `language ${args.lang}`, args.client && `client ${args.client}`]
      .filter(Boolean)
      .join(', ');
    throw new AppError(
      'not_found',
      filter ? `no snippets for ${model.id} with ${filter}` : (why ?? `no snippets for ${model.id}`),
    );
  }
  // Inference code for a model no provider serves is still printed, never as if it worked.
  const warning = result.sections.find((s) => s.kind === 'inference')?.warning;
  if (warning && list.some((s) => s.kind === 'inference')) note(`hubdesk: note: ${warning}\n`);
  if (args.json) {
    out(
      JSON.stringify(
        list.map((s) => ({
          kind: s.kind,
          language: s.language,
          client: s.client,
          ...(s.title ? { title: s.title } : {}),
          content: s.content,
        })),
        null,
        2,
      ) + '\n',
    );
  } else {
    out(list.map((s) => `${header(s)}\n${s.content}\n`).join('\n'));
  }
  return 0;
}

/** The bin's entry: exit code 1 and one line on stderr for any error, never a stack trace. */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  try {
    process.exitCode = await run(
      argv,
      process.env,
      (s) => process.stdout.write(s),
      (s) => process.stderr.write(s),
    );
  } catch (e) {
    const msg = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    process.stderr.write(`hubdesk: ${msg}\n`);
    process.exitCode = 1;
  }
}

void main();
