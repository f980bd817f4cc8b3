import { createRequire } from 'node:module';
import type { CatalogueData } from '@shared/contract/catalogue';

function tasksVersion(): string {
  try {
    return (createRequire(import.meta.url)('@huggingface/tasks/package.json') as { version: string }).version;
  } catch {
    return 'embedded';
  }
}

/** The embedded catalogue, built once from @huggingface/tasks on first request (the library loads then). */
export class CatalogueService {
  private data?: Promise<CatalogueData>;

  get(): Promise<CatalogueData> {
    return (this.data ??= import('./build').then(({ buildCatalogue }) => buildCatalogue(tasksVersion())));
  }
}
