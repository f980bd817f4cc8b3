import { snippetKinds, type SnippetKind } from '@shared/contract/snippets';
import { envVar } from '@shared/environment';
import { knownProviders } from '../services/snippets/engine';

/** The variables that change what the CLI prints, as the one table describes them. */
export const cliEnvVars = (['HF_ENDPOINT', 'HF_TOKEN', 'OLLAMA_HOST', 'HUBDESK_DATA_DIR'] as const).map(envVar);
const environment = cliEnvVars
  .map((v) => `  ${v.name.padEnd(23)}${v.about}${v.default ? ` (default ${v.default})` : ''}`)
  .join('\n');

export const USAGE = `Usage: hubdesk snippets <model-id> | --model-file <record.json> [options]

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
  -h, --help             this help

Environment (the app's data dir and settings apply here too; these fill the settings left unset):
${environment}`;

/** A mistake on the command line: one line on stderr, exit code 1. */
export class UsageError extends Error {}

export interface CliArgs {
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
