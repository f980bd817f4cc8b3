import { extname } from 'node:path';
import type { SnippetKind, SnippetOptions, SnippetsResult } from '@shared/contract/snippets';
import { AppError } from '@shared/errors';
import type { ModelRecord } from '@shared/model-record';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Logger } from '../log';
import { originOf } from '../net/endpoints';
import type { SnippetEngine } from './engine';
import { renderRepoSnippets } from './repo-snippets';

/** The desktop's save dialog (an Electron adapter): returns the path the user chose, or undefined if cancelled. */
export type SaveDialogPort = (opts: { defaultName: string; extension: string }) => Promise<string | undefined>;

interface SnippetServiceOptions {
  log: Logger;
  ollamaHost: () => string;
  billTo: () => string;
  /** The token for code that calls `url`: only where KeyBindings binds it. */
  hfToken: (url: string) => string | undefined;
  /** Whether a token is set at all (bound anywhere or not). */
  hfTokenSet: () => boolean;
  saveDialog?: SaveDialogPort;
}

interface SnippetRequest {
  model: ModelRecord;
  quant?: string;
  kinds?: SnippetKind[];
  options: SnippetOptions;
  tempToken?: string;
}

/** Where the inference snippets send their requests unless the options name another address. */
const ROUTER = 'https://router.huggingface.co';

/** The workbench's main-side calls: generate (cached), render with the real token, save through the dialog. */
export class SnippetService {
  private loading?: Promise<SnippetEngine>;

  constructor(private readonly opts: SnippetServiceOptions) {}

  /** The engine and the libraries behind it (@huggingface/inference, @huggingface/tasks) load on first use. */
  private engine(): Promise<SnippetEngine> {
    return (this.loading ??= import('./engine').then(({ SnippetEngine }) => new SnippetEngine(this.opts.log)));
  }

  private args(req: SnippetRequest) {
    const billTo = req.options.billTo ?? (this.opts.billTo() || undefined);
    return {
      model: req.model,
      quant: req.quant,
      kinds: req.kinds,
      options: { ...req.options, ...(billTo ? { billTo } : {}) },
      ollamaHost: this.opts.ollamaHost(),
    };
  }

  async generate(req: SnippetRequest): Promise<SnippetsResult> {
    return (await this.engine()).generate({ ...this.args(req), accessToken: req.tempToken });
  }

  /**
   * "Insert my token": the inference snippets with the user's real token written in, after the user confirmed, when
   * the address they call is one the token is bound to. Code for any other address (an endpoint URL from the page,
   * a provider's own API) reads the token from the environment instead, and each snippet's note says why.
   */
  async withToken(req: SnippetRequest): Promise<SnippetsResult> {
    if (!this.opts.hfTokenSet())
      throw new AppError('unauthorized', 'No Hugging Face token is set: add one in Settings, then try again.');
    const { endpointUrl, directRequest, provider } = req.options;
    const target = endpointUrl || (directRequest ? undefined : ROUTER);
    const token = target ? this.opts.hfToken(target) : undefined;
    const engine = await this.engine();
    if (token) {
      this.opts.log.info('snippets rendered with the user token', { model: req.model.id });
      return engine.generate({ ...this.args(req), kinds: ['inference'], accessToken: token });
    }
    const where = target ? (originOf(target) ?? target) : `${provider ?? 'the provider'}'s own API (a direct request)`;
    const why = `Your Hugging Face token is only written into code for the hosts it is bound to (Settings → Where your keys go): ${where} is not one, so this snippet reads the token from the environment.`;
    this.opts.log.info('snippets for an unbound host read the token from the environment', { model: req.model.id });
    const result = engine.generate({ ...this.args(req), kinds: ['inference'] });
    // The engine's result is cached: notes go on copies.
    return {
      ...result,
      tokenWithheld: why,
      sections: result.sections.map((s) => ({
        ...s,
        snippets: s.snippets.map((sn) => ({ ...sn, note: sn.note ? `${sn.note} ${why}` : why })),
      })),
    };
  }

  /** A dataset's or a Space's snippets: the app's own templates, no library to load. */
  repo(req: Parameters<typeof renderRepoSnippets>[0]) {
    return renderRepoSnippets(req);
  }

  async save(fileName: string, content: string): Promise<{ saved: boolean; path?: string }> {
    if (!this.opts.saveDialog)
      throw new AppError('unavailable', 'Saving to a project needs the desktop app; the browser downloads the file.');
    const path = await this.opts.saveDialog({ defaultName: fileName, extension: extname(fileName).slice(1) });
    if (!path) return { saved: false };
    try {
      writeFileAtomic(path, content.endsWith('\n') ? content : `${content}\n`, 0o644);
    } catch (e) {
      throw new AppError('forbidden', `Could not write ${path}: ${(e as Error).message}`);
    }
    this.opts.log.info('snippet saved', { path });
    return { saved: true, path };
  }
}
