import { LOCAL_APPS, parseGGUFQuantLabel, type LocalAppSnippet } from '@huggingface/tasks';
import type { Snippet, SnippetOptions, SnippetSection, SnippetsResult } from '@shared/contract/snippets';
import { defaultQuant } from '@shared/fit';
import type { ModelRecord } from '@shared/model-record';
import { ggufQuants } from '../hub/gguf';
import type { Logger } from '../log';
import { renderLocalServerSnippets } from './local-server';
import { toModelData } from './model-data';

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

export function localAppSection(
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

export function localServerSection(model: ModelRecord, quant: string | undefined, o: SnippetOptions, host: string) {
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
