import { existsSync, readFileSync } from 'node:fs';
import type { EndpointSetting, KeyBinding, KeyName, Settings } from '@shared/contract/settings';
import { endpointSettings, keyNames } from '@shared/contract/settings';
import { endpointEnv, secretEnv } from '@shared/environment';
import { AppError } from '@shared/errors';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Logger } from '../log';
import type { SecretStore } from '../secrets';
import { originOf, parseEndpoint } from './endpoints';

/** Which key each endpoint setting carries. */
export const keyOfEndpoint: Record<EndpointSetting, KeyName> = {
  hubEndpoint: 'hfToken',
  routerUrl: 'hfToken',
  falRestBase: 'falKey',
  ollamaHost: 'ollamaApiKey',
};

/** The hosts each key is issued for. */
const builtinOrigins: Record<KeyName, readonly string[]> = {
  hfToken: ['https://huggingface.co', 'https://router.huggingface.co'],
  falKey: ['https://rest.fal.ai'],
  ollamaApiKey: ['https://ollama.com'],
};

const keyLabels: Record<KeyName, string> = {
  hfToken: 'Hugging Face token',
  falKey: 'fal key',
  ollamaApiKey: 'Ollama API key',
};

export interface ApprovalRequest {
  key: KeyName;
  label: string;
  envVar: string;
  origin: string;
}

/** Asks the user, outside the renderer (desktop: a main-process dialog), whether a key may go to an origin. */
export type AskApproval = (req: ApprovalRequest) => Promise<boolean>;

interface KeyBindingsOptions {
  /** Where approvals persist (desktop); omitted → none are kept (web mode cannot approve anyway). */
  file?: string;
  secrets: SecretStore;
  log: Logger;
  /** Absent in the web mode: only the environment and the command line bind hosts there. */
  ask?: AskApproval;
  /** Origins set outside the page (HF_ENDPOINT, OLLAMA_HOST, …) and the key each is trusted with. */
  trusted?: { key: KeyName; url: string }[];
}

/**
 * Binds each secret to the hosts it is meant for. Services never read a secret directly: they ask for it with
 * the URL they are about to call, and get it only if that URL's origin is bound to the key.
 */
export class KeyBindings {
  private approved = new Map<KeyName, Set<string>>(keyNames.map((n) => [n, new Set<string>()]));
  private readonly fromOutside = new Map<KeyName, Set<string>>(keyNames.map((n) => [n, new Set<string>()]));
  private readonly warned = new Set<string>();

  constructor(private readonly opts: KeyBindingsOptions) {
    for (const t of opts.trusted ?? []) {
      const o = originOf(t.url);
      if (o) this.fromOutside.get(t.key)!.add(o);
    }
    this.load();
  }

  private load(): void {
    if (!this.opts.file || !existsSync(this.opts.file)) return;
    try {
      const raw = JSON.parse(readFileSync(this.opts.file, 'utf8')) as Record<string, unknown>;
      for (const name of keyNames) {
        const list = raw[name];
        if (!Array.isArray(list)) continue;
        for (const o of list) if (typeof o === 'string' && originOf(o) === o) this.approved.get(name)!.add(o);
      }
    } catch (e) {
      // Unreadable approvals bind nothing: the user is asked again.
      this.opts.log.warn('key approvals unreadable; starting without', { reason: String(e) });
    }
  }

  private save(): void {
    if (!this.opts.file) return;
    const out: Record<string, string[]> = {};
    for (const [name, set] of this.approved) if (set.size) out[name] = [...set];
    writeFileAtomic(this.opts.file, JSON.stringify(out, null, 2));
  }

  /** Why an origin receives a key, or undefined when it does not. */
  source(name: KeyName, origin: string): KeyBinding['source'] | undefined {
    if (builtinOrigins[name].includes(origin)) return 'builtin';
    if (this.fromOutside.get(name)!.has(origin)) return 'env';
    if (this.approved.get(name)!.has(origin)) return 'approved';
    return undefined;
  }

  get canApprove(): boolean {
    return !!this.opts.ask;
  }

  /** The secret for a request to `url`, or undefined when the key is not bound to that origin (or not set). */
  forUrl(name: KeyName, url: string): string | undefined {
    const value = this.opts.secrets.get(name);
    if (!value) return undefined;
    const origin = originOf(url);
    if (origin && this.source(name, origin)) return value;
    const note = `${name} ${origin ?? url}`;
    if (!this.warned.has(note)) {
      this.warned.add(note);
      this.opts.log.warn('key withheld from a host it is not bound to', { key: name, origin: origin ?? 'invalid' });
    }
    return undefined;
  }

  /** Whether a set key is being held back from `url` (so a service can say why it sent none). */
  withheld(name: KeyName, url: string): boolean {
    return !!this.opts.secrets.get(name) && !this.forUrl(name, url);
  }

  /** Asks the user (outside the page) to bind the key of `setting` to the origin `url`; true when bound. */
  async approve(setting: EndpointSetting, url: string): Promise<boolean> {
    const key = keyOfEndpoint[setting];
    const { origin } = parseEndpoint(url);
    if (this.source(key, origin)) return true;
    if (!this.opts.ask)
      throw new AppError(
        'forbidden',
        `The web mode cannot approve hosts from the page. To send your ${keyLabels[key]} to ${origin}, start HubDesk with it set in the environment (${endpointEnv[setting].name}).`,
      );
    const yes = await this.opts.ask({ key, label: keyLabels[key], envVar: secretEnv[key].name, origin });
    if (!yes) return false;
    this.approved.get(key)!.add(origin);
    this.save();
    this.opts.log.info('key bound to a host by the user', { key, origin });
    return true;
  }

  /** After the page changed endpoints: approvals no current endpoint uses are dropped. */
  dropUnused(settings: Settings): void {
    let changed = false;
    for (const [name, set] of this.approved) {
      const inUse = new Set(
        endpointSettings.filter((s) => keyOfEndpoint[s] === name).map((s) => originOf(settings[s]) ?? ''),
      );
      for (const o of set)
        if (!inUse.has(o)) {
          set.delete(o);
          changed = true;
        }
    }
    if (changed) this.save();
  }

  /** Which key goes where, for the settings page. */
  view(settings: Settings): KeyBinding[] {
    return endpointSettings.map((setting) => {
      const key = keyOfEndpoint[setting];
      const origin = originOf(settings[setting]) ?? settings[setting];
      const source = this.source(key, origin);
      return { setting, key, origin, bound: !!source, ...(source ? { source } : {}) };
    });
  }
}
