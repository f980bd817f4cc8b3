import { snippetOptionsSchema } from '@shared/contract/snippets';
import { AppError } from '@shared/errors';
import { createServices, type Services } from '../services';
import { defaultDataDir } from '../services/data-dir';
import { fitDefaultQuant } from '../services/fit/default-quant';
import { parseArgs, USAGE, UsageError, type CliArgs } from './args';
import { readModelFile, resolveModel } from './model';
import { formatSnippets } from './output';

/**
 * The app's services for one command: the data dir, settings and keys the app uses. Like the web mode, no OS
 * keychain (keys come from the environment) and no host approvals; nothing else starts (the chat database and MCP
 * open on first use, and the CLI uses neither).
 */
function cliServices(env: NodeJS.ProcessEnv): Services {
  return createServices({
    dataDir: defaultDataDir(env),
    mode: 'web',
    version: env.npm_package_version ?? '0.1.0',
    env,
    // Naming a model on the command line is the consent to look it up; a command waits 10 s, never between retries.
    hub: { consented: true, timeoutMs: 10_000, sleep: async () => {} },
  });
}

/** `hubdesk snippets …`: the snippet service of the app, on the command line. */
async function snippets(args: CliArgs, services: Services, out: (s: string) => void, note: (s: string) => void) {
  const model = args.modelFile ? readModelFile(args.modelFile) : await resolveModel(args.modelId!, services);
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
  // Without --quant, the same default as the model page: this machine's hardware, the repo's GGUF header.
  const quant =
    args.quant ??
    (await fitDefaultQuant(model, {
      hardware: services.hardware,
      headers: args.modelFile ? undefined : services.ggufHeaders,
    }));
  const result = await services.snippets.generate({
    model,
    quant,
    kinds: args.kind ? [args.kind] : undefined,
    options: parsed.data,
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
  out(formatSnippets(list, args.json));
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
  const services = cliServices(env);
  try {
    await snippets(args, services, out, note);
    return 0;
  } finally {
    await services.dispose();
  }
}
