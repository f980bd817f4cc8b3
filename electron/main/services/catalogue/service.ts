import { createRequire } from 'node:module';
import type { CatalogueData } from '@shared/contract/catalogue';
import { buildCatalogue } from './build';

function tasksVersion(): string {
  try {
    return (createRequire(import.meta.url)('@huggingface/tasks/package.json') as { version: string }).version;
  } catch {
    return 'embedded';
  }
}

/** The embedded catalogue, built once from @huggingface/tasks on first request. */
export class CatalogueService {
  private data?: CatalogueData;

  get(): CatalogueData {
    this.data ??= buildCatalogue(tasksVersion());
    return this.data;
  }
}
