import { snippets as inferenceSnippets } from '@huggingface/inference';
import type { ProviderChoice, Snippet, SnippetOptions, SnippetSection } from '@shared/contract/snippets';
import type { ModelRecord } from '@shared/model-record';
import { toModelData } from './model-data';
import { quoteCurlBody } from './shell-quoting';

type InferenceArgs = Parameters<typeof inferenceSnippets.getInferenceSnippets>;
type MappingEntry = NonNullable<InferenceArgs[2]>;

export function libraryOptions(o: SnippetOptions, accessToken?: string): Record<string, unknown> {
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
export function providerChoices(model: ModelRecord): ProviderChoice[] {
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

export function inferenceSection(model: ModelRecord, provider: string, opts: Record<string, unknown>): SnippetSection {
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
