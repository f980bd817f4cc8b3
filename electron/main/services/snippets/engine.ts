import { setLogger, INFERENCE_PROVIDERS } from '@huggingface/inference';
import { getModelInputSnippet } from '@huggingface/tasks';
import type { SnippetKind, SnippetOptions, SnippetSection, SnippetsResult } from '@shared/contract/snippets';
import type { ModelRecord } from '@shared/model-record';
import { Lru } from '@shared/lru';
import type { Logger } from '../log';
import { inferenceSection, libraryOptions, providerChoices } from './inference-section';
import { librarySection } from './library-section';
import { localAppSection, localServerSection } from './local-app-section';
import { toModelData } from './model-data';

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
