import { existsSync } from 'node:fs';
import type { LoadPlan, LocalFolder, LocalModel, LocalModels } from '@shared/contract/local-models';
import type { FitHardware } from '@shared/fit';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';
import type { LocalConfigStore } from '../config';
import { scanHfCache, scanLmStudio, scanUserFolder, type Candidate } from './candidates';
import { deleteDownloaded, scanDownloads } from './downloaded';
import { hfCacheDir, lmStudioDirs, normalizeFolder, type Root } from './folders';
import { HeaderCache, type GgufFacts } from './gguf-facts';
import { buildModel, groupParts, partPaths } from './model';
import { loadPlan } from './plan';
import { isDir } from './walk';

export interface LibraryOptions {
  /** `<data dir>/models`: HubDesk's downloads, `<repo>/<file>`, with their manifest. */
  downloadsDir: string;
  config: LocalConfigStore;
  env: Record<string, string | undefined>;
  /** The home folder (tests: a temporary one holding the HF cache and LM Studio fixtures). */
  home: string;
  log: Logger;
  /** The machine the load plans are made for (the Settings override when set); undefined when unknown. */
  hardware: () => Promise<FitHardware | undefined>;
}

const FORBIDDEN = 'HubDesk only deletes files it downloaded; forget the folder instead.';
/** Problem rows listed per folder: enough to see what is wrong; the rest is a count (the reply stays small). */
export const MAX_PROBLEM_ROWS = 200;

/** The GGUFs on disk: HubDesk's downloads, the HF cache, LM Studio's folder and the user's folders, used in place. */
export class LocalLibrary {
  private last: LocalModels | undefined;
  private scanning: Promise<LocalModels> | undefined;
  private readonly headers = new HeaderCache();
  /** The header facts of each usable model of the last scan: plans follow a change of hardware without a rescan. */
  private facts = new Map<string, GgufFacts>();

  constructor(private readonly opts: LibraryOptions) {}

  /** Every model found (scanned again with `refresh`, else from the last scan when there is one). */
  async list(refresh = false): Promise<LocalModels> {
    if (this.last && !refresh) return this.replanned(this.last);
    // One scan at a time: a caller arriving mid-scan shares it, unless it asked for a fresh one.
    if (this.scanning && !refresh) return this.scanning;
    const run = (this.scanning ?? Promise.resolve()).catch(() => {}).then(() => this.scan());
    this.scanning = run;
    try {
      this.last = await run;
      return this.last;
    } finally {
      if (this.scanning === run) this.scanning = undefined;
    }
  }

  /** The last scan with plans for the hardware now (the Settings override may have changed since). */
  private async replanned(last: LocalModels): Promise<LocalModels> {
    const hw = await this.opts.hardware().catch(() => undefined);
    const models = last.models.map((m) => {
      const facts = this.facts.get(m.id);
      return facts ? { ...m, plan: loadPlan(facts, m.sizeBytes, hw) } : m;
    });
    this.last = { ...last, models };
    return this.last;
  }

  /** The automatic roots, then the user's, in scan order; hidden ones left out. */
  private async roots(): Promise<Root[]> {
    const { home, env, downloadsDir } = this.opts;
    const cfg = this.opts.config.get();
    const hidden = new Set(cfg.hidden);
    const roots: Root[] = [
      { path: downloadsDir, source: 'downloaded', auto: true },
      { path: hfCacheDir(env, home), source: 'hf-cache', auto: true },
      ...(await lmStudioDirs(home)).map((path): Root => ({ path, source: 'lmstudio', auto: true })),
    ];
    const seen = new Set(roots.map((r) => r.path));
    for (const path of cfg.folders) {
      if (seen.has(path)) continue;
      seen.add(path);
      roots.push({ path, source: 'folder', auto: false });
    }
    return roots.filter((r) => r.source === 'downloaded' || !hidden.has(r.path));
  }

  private async scan(): Promise<LocalModels> {
    const hw = await this.opts.hardware().catch(() => undefined);
    const roots = await this.roots();
    const models: LocalModel[] = [];
    const byId = new Map<string, number>();
    const folders: LocalFolder[] = [];
    const paths = new Set<string>();
    const facts = new Map<string, GgufFacts>();
    for (const root of roots) {
      const exists = await isDir(root.path);
      const found = exists ? await this.candidates(root) : [];
      let count = 0;
      let problems = 0;
      let problemsHidden = 0;
      for (const group of groupParts(found)) {
        const { model: m, facts: f } = await buildModel(group, this.headers, hw);
        for (const c of group.parts) if (c) paths.add(c.path);
        if (m.problem && problems >= MAX_PROBLEM_ROWS) {
          problemsHidden++;
          continue;
        }
        if (m.problem) problems++;
        const at = byId.get(m.id);
        // The same file in two places: the first root wins (downloads first), unless its copy is unusable.
        if (at !== undefined && !(models[at].problem && !m.problem)) continue;
        if (at !== undefined) models[at] = m;
        else byId.set(m.id, models.push(m) - 1);
        if (f) facts.set(m.id, f);
        else facts.delete(m.id);
        count++;
      }
      folders.push({ ...root, exists, models: count, ...(problemsHidden ? { problemsHidden } : {}) });
    }
    this.headers.keepOnly(paths);
    this.facts = facts;
    return { models, folders };
  }

  private candidates(root: Root): Promise<Candidate[]> {
    switch (root.source) {
      case 'downloaded':
        return scanDownloads(root.path, this.opts.log);
      case 'hf-cache':
        return scanHfCache(root.path);
      case 'lmstudio':
        return scanLmStudio(root.path);
      default:
        return scanUserFolder(root.path);
    }
  }

  /** Adds a folder to scan (it must exist); a found folder the user had forgotten is shown again. */
  async addFolder(path: string): Promise<LocalModels> {
    const dir = this.folderPath(path);
    if (!(await isDir(dir))) {
      const what = existsSync(dir) ? 'is a file, not a folder' : 'does not exist';
      throw new AppError('invalid_input', `${dir} ${what}: choose a folder that holds .gguf files.`);
    }
    const cfg = this.opts.config.get();
    if (cfg.hidden.includes(dir)) this.opts.config.update({ hidden: cfg.hidden.filter((p) => p !== dir) });
    const auto = (await this.roots()).some((r) => r.auto && r.path === dir);
    if (!auto && !cfg.folders.includes(dir)) this.opts.config.update({ folders: [...cfg.folders, dir] });
    return this.list(true);
  }

  /** Drops a folder the user added, or hides a found one (HF cache, LM Studio). Its files stay on disk. */
  async forgetFolder(path: string): Promise<LocalModels> {
    const dir = this.folderPath(path);
    const cfg = this.opts.config.get();
    if (dir === this.opts.downloadsDir)
      throw new AppError('invalid_input', "HubDesk's downloads folder cannot be forgotten: delete its models instead.");
    if (cfg.folders.includes(dir)) {
      this.opts.config.update({ folders: cfg.folders.filter((p) => p !== dir) });
    } else if ((await this.roots()).some((r) => r.auto && r.path === dir)) {
      this.opts.config.update({ hidden: [...cfg.hidden, dir] });
    } else {
      throw new AppError('not_found', `${dir} is not one of the model folders.`);
    }
    return this.list(true);
  }

  /** Deletes a downloaded model's files (every part); refuses files HubDesk did not download. */
  async delete(id: string): Promise<LocalModels> {
    const model = await this.find(id);
    if (!model) throw new AppError('not_found', `No local model "${id}": it was moved or deleted already.`);
    if (!model.deletable || model.source !== 'downloaded') throw new AppError('forbidden', FORBIDDEN);
    try {
      await deleteDownloaded(this.opts.downloadsDir, this.opts.log, this.partsOf(model));
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new AppError('unavailable', `Could not delete ${model.name} (${reason}): is the file in use or read-only?`);
    }
    this.opts.log.info('local model deleted', { id, parts: model.parts });
    return this.list(true);
  }

  /** The model with this id, or undefined; a model with a problem is returned (the caller refuses it). */
  async find(id: string): Promise<LocalModel | undefined> {
    return (await this.list()).models.find((m) => m.id === id);
  }

  /** Every part's absolute path, in order (one for a single-file GGUF). */
  partsOf(model: LocalModel): string[] {
    return partPaths(model.path, model.parts);
  }

  /** The load plan for a model of this size and header on this machine. */
  plan(model: LocalModel): LoadPlan | undefined {
    return model.plan;
  }

  private folderPath(path: string): string {
    const dir = normalizeFolder(path, this.opts.home);
    if (!dir) throw new AppError('invalid_input', `"${path}" is not a full path: give the folder's whole path.`);
    return dir;
  }
}
