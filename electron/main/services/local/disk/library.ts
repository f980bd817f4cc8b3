import type { LoadPlan, LocalModel, LocalModels } from '@shared/contract/local';
import type { FitHardware } from '@shared/fit';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';
import type { LocalConfigStore } from '../config';

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

/** The GGUFs on disk: HubDesk's downloads, the HF cache, LM Studio's folder and the user's folders, used in place. */
export class LocalLibrary {
  constructor(private readonly opts: LibraryOptions) {}

  /** Every model found (scanned again with `refresh`, else from the last scan when there is one). */
  async list(refresh = false): Promise<LocalModels> {
    void refresh;
    void this.opts;
    throw new AppError('unavailable', 'Local models are not built yet.');
  }

  async addFolder(path: string): Promise<LocalModels> {
    void path;
    return this.list(true);
  }

  async forgetFolder(path: string): Promise<LocalModels> {
    void path;
    return this.list(true);
  }

  /** Deletes a downloaded model's files (every part); refuses files HubDesk did not download. */
  async delete(id: string): Promise<LocalModels> {
    void id;
    return this.list(true);
  }

  /** The model with this id, or undefined; a model with a problem is returned (the caller refuses it). */
  async find(id: string): Promise<LocalModel | undefined> {
    return (await this.list()).models.find((m) => m.id === id);
  }

  /** Every part's absolute path, in order (one for a single-file GGUF). */
  partsOf(model: LocalModel): string[] {
    return [model.path];
  }

  /** The load plan for a model of this size and header on this machine. */
  plan(model: LocalModel): LoadPlan | undefined {
    return model.plan;
  }
}
