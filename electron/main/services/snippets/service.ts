import { extname } from 'node:path';
import type { SnippetKind, SnippetOptions, SnippetsResult } from '@shared/contract/snippets';
import { AppError } from '@shared/errors';
import type { ModelRecord } from '@shared/model-record';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Logger } from '../log';
import type { SnippetEngine } from './engine';

/** The desktop's save dialog (an Electron adapter): returns the path the user chose, or undefined if cancelled. */
export type SaveDialogPort = (opts: { defaultName: string; extension: string }) => Promise<string | undefined>;

interface SnippetServiceOptions {
  log: Logger;
  ollamaHost: () => string;
  billTo: () => string;
  hfToken: () => string | undefined;
  saveDialog?: SaveDialogPort;
}

interface SnippetRequest {
  model: ModelRecord;
  quant?: string;
  kinds?: SnippetKind[];
  options: SnippetOptions;
  tempToken?: string;
}

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

  /** "Insert my token": the inference snippets with the user's real token written in, after the user confirmed. */
  async withToken(req: SnippetRequest): Promise<SnippetsResult> {
    const token = this.opts.hfToken();
    if (!token)
      throw new AppError('unauthorized', 'No Hugging Face token is set: add one in Settings, then try again.');
    this.opts.log.info('snippets rendered with the user token', { model: req.model.id });
    return (await this.engine()).generate({ ...this.args(req), kinds: ['inference'], accessToken: token });
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
