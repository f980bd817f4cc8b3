import type { DoctorReport, Endpoint, EndpointModel, EndpointSave } from '@shared/contract/endpoints';
import { AppError } from '@shared/errors';
import type { Logger } from '../log';
import type { EndpointConnection, EndpointPort } from '../engines/endpoint/port';
import { keyedFetch } from '../net/bound-fetch';
import { parseEndpoint } from '../net/endpoints';
import { runDoctor } from './doctor';
import { baseCandidates, locate } from './doctor-locate';
import { envEndpoints } from './env';
import { describeModels } from './models';
import { networkProblem } from './problems';
import type { EndpointStore, StoredEndpoint } from './store';

interface EndpointsOptions {
  store: EndpointStore;
  env: Record<string, string | undefined>;
  log: Logger;
  /** Every secret main holds: masked in what an endpoint answers. */
  secrets: () => string[];
  /** Tests: the network under the key-bound fetch. */
  baseFetch?: typeof fetch;
  doctorDeadlineMs?: number;
  modelsTimeoutMs?: number;
}

/**
 * The user's OpenAI-compatible endpoints (and those HUBDESK_ENDPOINTS sets): stored, checked by the doctor, their
 * models listed, and handed to the chat engines as a connection whose fetch carries the endpoint's key to the
 * origin it was entered for, and nowhere else.
 */
export class EndpointsService implements EndpointPort {
  /** Read-only: set outside the page. Their base URL may still be corrected by a Test (kept for this run). */
  private readonly fromEnv: StoredEndpoint[];
  /** Each endpoint's models as last listed, for the chat engine to know what a model takes without asking again. */
  private readonly described = new Map<string, EndpointModel[]>();

  constructor(private readonly opts: EndpointsOptions) {
    this.fromEnv = envEndpoints(opts.env, opts.log);
  }

  private find(id: string): { e: StoredEndpoint; env: boolean } | undefined {
    const env = this.fromEnv.find((x) => x.id === id);
    if (env) return { e: env, env: true };
    const e = this.opts.store.get(id);
    return e ? { e, env: false } : undefined;
  }

  private need(id: string): { e: StoredEndpoint; env: boolean } {
    const found = this.find(id);
    if (!found) throw new AppError('not_found', 'This endpoint was removed — add it again in Settings → Endpoints.');
    return found;
  }

  private view({ e, env }: { e: StoredEndpoint; env: boolean }): Endpoint {
    return {
      id: e.id,
      name: e.name,
      preset: e.preset,
      baseUrl: e.baseUrl,
      hasKey: !!e.key,
      ...(e.key ? { keyOrigin: e.key.origin } : {}),
      source: env ? 'env' : 'user',
    };
  }

  /** A fetch that puts `key` on requests to its own origin only (and never after a redirect away). */
  private fetchFor(key: () => StoredEndpoint['key']): typeof fetch {
    const secrets = () => {
      const k = key()?.value;
      // A key being tried before it is saved is masked too.
      return k ? [...this.opts.secrets(), k] : this.opts.secrets();
    };
    return keyedFetch(
      (origin) => {
        const k = key();
        return k && k.origin === origin ? k.value : undefined;
      },
      'Bearer',
      { secrets, base: this.opts.baseFetch },
    );
  }

  list(): { endpoints: Endpoint[] } {
    return {
      endpoints: [
        ...this.fromEnv.map((e) => this.view({ e, env: true })),
        ...this.opts.store.list().map((e) => this.view({ e, env: false })),
      ],
    };
  }

  /**
   * Saves after the doctor ran (a failing endpoint is saved all the same, with the report saying why). A key is bound
   * to the origin of the address it was entered with: a save that moves the address to another origin drops it
   * unless a new key comes with it.
   */
  async save(input: EndpointSave): Promise<{ endpoint: Endpoint; report: DoctorReport }> {
    const before = input.id ? this.need(input.id) : undefined;
    if (before?.env)
      throw new AppError('forbidden', `"${before.e.name}" is set by HUBDESK_ENDPOINTS: change it there and restart.`);
    const { origin, href } = parseEndpoint(input.baseUrl, 'Endpoint address');
    let key: StoredEndpoint['key'];
    if (typeof input.apiKey === 'string') key = { value: input.apiKey, origin };
    else if (input.apiKey === undefined && before?.e.key?.origin === origin) key = before.e.key;
    if (before?.e.key && !key && input.apiKey === undefined)
      this.opts.log.info('endpoint key dropped: the address moved to another origin', { id: before.e.id, origin });
    const report = await runDoctor({
      baseUrl: href,
      preset: input.preset,
      fetch: this.fetchFor(() => key),
      hasKey: !!key,
      deadlineMs: this.opts.doctorDeadlineMs,
    });
    const e: StoredEndpoint = {
      id: before?.e.id ?? this.opts.store.newId(),
      name: input.name,
      preset: input.preset,
      baseUrl: report.ok ? report.baseUrl : href,
      ...(key ? { key } : {}),
    };
    this.opts.store.put(e);
    // Another address may serve other models: listed again when next asked.
    this.described.delete(e.id);
    this.opts.log.info('endpoint saved', { id: e.id, ok: report.ok, hasKey: !!key });
    return { endpoint: this.view({ e, env: false }), report };
  }

  remove(id: string): { removed: true } {
    const { e, env } = this.need(id);
    if (env) throw new AppError('forbidden', `"${e.name}" is set by HUBDESK_ENDPOINTS: remove it there and restart.`);
    this.opts.store.remove(id);
    this.described.delete(id);
    return { removed: true };
  }

  /** "Test": the doctor on the stored address; the base URL it finds (`/v1` added or dropped) is kept. */
  async test(id: string): Promise<DoctorReport> {
    const found = this.need(id);
    const report = await runDoctor({
      baseUrl: found.e.baseUrl,
      preset: found.e.preset,
      fetch: this.fetchFor(() => this.find(id)?.e.key),
      hasKey: !!found.e.key,
      deadlineMs: this.opts.doctorDeadlineMs,
    });
    const now = this.find(id);
    if (report.ok && now && now.e.baseUrl !== report.baseUrl) {
      now.e.baseUrl = report.baseUrl;
      if (!now.env) this.opts.store.put(now.e);
    }
    return report;
  }

  /**
   * The endpoint's models from `/models`, with the context length the server reports for each. An address that
   * answers only with `/v1` added or dropped (one set in HUBDESK_ENDPOINTS, or a server that moved) is corrected.
   */
  async models(id: string): Promise<{ models: EndpointModel[] }> {
    const found = this.need(id);
    const { e } = found;
    const ms = this.opts.modelsTimeoutMs ?? 10_000;
    const signal = AbortSignal.timeout(ms);
    const fetchFn = this.fetchFor(() => this.find(id)?.e.key);
    const candidates = [e.baseUrl, ...baseCandidates(e.baseUrl).filter((c) => c !== e.baseUrl)];
    try {
      const listed = await locate(candidates, fetchFn, signal, !!e.key);
      if ('problem' in listed) throw listed.problem;
      if (listed.base !== e.baseUrl) {
        e.baseUrl = listed.base;
        if (!found.env) this.opts.store.put(e);
      }
      const models = await describeModels(listed.entries, { baseUrl: listed.base, fetch: fetchFn }, signal);
      // Where the server does not say the context length, the one the user gave for it.
      for (const m of models) {
        const given = m.contextLength ? undefined : this.opts.store.context(id, m.id);
        if (given) Object.assign(m, { contextLength: given, contextSource: 'user' });
      }
      this.described.set(id, models);
      return { models };
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw networkProblem(err, e.baseUrl, e.preset, { signal, ms });
    }
  }

  /**
   * The context length the server runs a model with, as the user gives it where the server does not say (asked once
   * in the chat): kept per endpoint and model, and listed with the model from then on. A length the server reports
   * wins over it.
   */
  setContext(input: { id: string; model: string; contextLength: number }): { saved: true } {
    this.need(input.id);
    this.opts.store.setContext(input.id, input.model, input.contextLength);
    const m = this.described.get(input.id)?.find((x) => x.id === input.model);
    if (m && m.contextSource !== 'server')
      Object.assign(m, { contextLength: input.contextLength, contextSource: 'user' });
    return { saved: true };
  }

  /** A model as the endpoint last listed it, listing it once when it was not yet; undefined when it cannot say. */
  private async describe(id: string, model: string): Promise<EndpointModel | undefined> {
    const known = this.described.get(id)?.find((m) => m.id === model);
    if (known) return known;
    try {
      return (await this.models(id)).models.find((m) => m.id === model);
    } catch {
      // The chat says what is wrong with the endpoint when it asks for the reply.
      return undefined;
    }
  }

  connection(id: string): EndpointConnection | undefined {
    const found = this.find(id);
    if (!found) return undefined;
    return {
      id,
      name: found.e.name,
      baseUrl: found.e.baseUrl,
      fetch: this.fetchFor(() => this.find(id)?.e.key),
      describe: (model) => this.describe(id, model),
    };
  }

  /** The user chose whether secrets stay on disk without a keyring: endpoint keys follow (written, or removed). */
  storageChanged(): void {
    this.opts.store.saveKeys();
  }

  /** Every endpoint key, for the masked-secrets list (an upstream that echoes one cannot show it to the page). */
  secrets(): string[] {
    return [...this.fromEnv, ...this.opts.store.list()].flatMap((e) => (e.key ? [e.key.value] : []));
  }
}
