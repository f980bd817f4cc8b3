import { AppError } from '@shared/errors';
import { hubOffError } from '@shared/hub-off';
import type { HubFreshness } from '@shared/contract/hub';
import type { GgufQuant } from '@shared/contract/hub-repo';
import type { HubSearchInput, HubSearchOutput } from '@shared/contract/hub-search';
import {
  modelRecordSchema,
  providerMappingEntrySchema,
  type ModelRecord,
  type ProviderMappingEntry,
} from '@shared/model-record';
import { HUB_INFO_MAX_BYTES } from './caps';
import type { HubClient } from './client';
import { HubRepoDetails } from './repo';
import { searchHub } from './search';

interface HubServiceOptions {
  client: HubClient;
  /** Hub access is `online`: nothing goes to the network otherwise. */
  enabled: () => boolean;
}

/** The Hub's mapping as an array, whichever shape it came in (object keyed by provider, or array). */
function normalizeProviderMapping(raw: unknown, modelId: string): ProviderMappingEntry[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const entries: unknown[] = Array.isArray(raw)
    ? raw
    : typeof raw === 'object'
      ? Object.entries(raw as Record<string, unknown>).map(([provider, v]) => ({
          provider,
          hfModelId: modelId,
          ...(v as object),
        }))
      : [];
  const out: ProviderMappingEntry[] = [];
  for (const e of entries) {
    const withId = { hfModelId: modelId, ...(e as object) };
    const parsed = providerMappingEntrySchema.safeParse(withId);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** Builds a ModelRecord from the Hub's model answers (default + expanded), keeping only what parses. */
export function toModelRecord(
  id: string,
  base: Record<string, unknown>,
  expanded: Record<string, unknown> = {},
): ModelRecord {
  const raw: Record<string, unknown> = { ...base, ...expanded };
  const candidate: Record<string, unknown> = { id: String(raw.id ?? id) };
  const shape = modelRecordSchema.shape as Record<
    string,
    { safeParse(v: unknown): { success: boolean; data?: unknown } }
  >;
  for (const key of Object.keys(shape)) {
    if (key === 'id' || key === 'inferenceProviderMapping' || key === 'siblings') continue;
    if (raw[key] === undefined || raw[key] === null) continue;
    const parsed = shape[key].safeParse(raw[key]);
    if (parsed.success) candidate[key] = parsed.data;
  }
  if (!candidate.author && String(candidate.id).includes('/')) candidate.author = String(candidate.id).split('/')[0];
  if (Array.isArray(raw.siblings)) {
    candidate.siblings = (raw.siblings as Record<string, unknown>[])
      .filter((s) => typeof s?.rfilename === 'string')
      .map((s) => {
        const size =
          typeof s.size === 'number'
            ? s.size
            : typeof (s.lfs as { size?: unknown })?.size === 'number'
              ? (s.lfs as { size: number }).size
              : undefined;
        return size === undefined ? { rfilename: s.rfilename as string } : { rfilename: s.rfilename as string, size };
      });
  }
  const mapping = normalizeProviderMapping(raw.inferenceProviderMapping, String(candidate.id));
  if (mapping) candidate.inferenceProviderMapping = mapping;
  return modelRecordSchema.parse(candidate);
}

function modelPath(id: string, query: string): string {
  return `/api/models/${id.split('/').map(encodeURIComponent).join('/')}?${query}`;
}

/** Search and model details from the Hub, gated by the user's Hub access choice. */
export class HubService {
  /** Cards, files, lineage, datasets and Spaces (hub/repo.ts). */
  readonly details: HubRepoDetails;

  constructor(private readonly opts: HubServiceOptions) {
    this.details = new HubRepoDetails(opts.client, opts.enabled);
  }

  private get client(): HubClient {
    return this.opts.client;
  }

  search(input: HubSearchInput): Promise<HubSearchOutput> {
    return searchHub(this.client, this.opts.enabled(), input);
  }

  /**
   * A model's details: the default answer (with file sizes) and the expanded fields outside it
   * (`inferenceProviderMapping`, `gguf`). With live access off, only a copy cached earlier is returned.
   */
  async model(id: string): Promise<{ model: ModelRecord; freshness: HubFreshness; quants: GgufQuant[] }> {
    const basePath = modelPath(id, 'blobs=true');
    const expandPath = modelPath(id, 'expand[]=inferenceProviderMapping&expand[]=gguf');
    const what = `model "${id}"`;
    if (!this.opts.enabled()) {
      const base = this.client.cached(basePath);
      if (!base) throw hubOffError();
      const expanded = this.client.cached(expandPath);
      const model = toModelRecord(id, base.body as Record<string, unknown>, expanded?.body as Record<string, unknown>);
      return { model, freshness: base.freshness, quants: await quantsOf(model) };
    }
    const base = await this.client.get(basePath, what, HUB_INFO_MAX_BYTES);
    let expanded: Record<string, unknown> | undefined;
    try {
      expanded = (await this.client.get(expandPath, what, HUB_INFO_MAX_BYTES)).body as Record<string, unknown>;
    } catch {
      // The expanded fields are extras: the page works without providers or GGUF metadata.
      expanded = undefined;
    }
    if (!base.body || typeof base.body !== 'object' || Array.isArray(base.body))
      throw new AppError('upstream', `The Hub at ${this.client.host} sent an unreadable answer for the ${what}.`);
    const model = toModelRecord(id, base.body as Record<string, unknown>, expanded);
    return { model, freshness: base.freshness, quants: await quantsOf(model) };
  }
}

/** A repo's GGUF quants; the quant tables of @huggingface/tasks load with the first GGUF repo, not at start-up. */
async function quantsOf(model: ModelRecord): Promise<GgufQuant[]> {
  if (!model.siblings?.some((f) => f.rfilename.toLowerCase().endsWith('.gguf'))) return [];
  const { ggufQuants } = await import('./gguf');
  return ggufQuants(model.siblings);
}
