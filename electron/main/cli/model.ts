import { readFileSync } from 'node:fs';
import { AppError } from '@shared/errors';
import { modelRecordSchema, type ModelRecord } from '@shared/model-record';
import type { Services } from '../services';
import { toModelRecord } from '../services/hub/service';

/** `--model-file`: a Hub API answer saved as JSON. */
export function readModelFile(path: string): ModelRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new AppError(
      'invalid_input',
      code === 'ENOENT' ? `no such file: ${path}` : `${path} is not a JSON model record (${(e as Error).message})`,
    );
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || typeof (raw as { id?: unknown }).id !== 'string')
    throw new AppError('invalid_input', `${path} is not a Hub model record (it needs at least an "id")`);
  // A Hub API answer: the mapping may be an object keyed by provider; unknown fields are dropped.
  const record = toModelRecord((raw as { id: string }).id, raw as Record<string, unknown>);
  return modelRecordSchema.parse(record);
}

/** A model id: the embedded catalogue first (offline), else the Hub. */
export async function resolveModel(id: string, services: Pick<Services, 'catalogue' | 'hub'>): Promise<ModelRecord> {
  const embedded = (await services.catalogue.get()).models.find((m) => m.id === id);
  if (embedded) {
    const { tasks: _tasks, widget: _widget, ...record } = embedded;
    return record;
  }
  try {
    return (await services.hub.model(id)).model;
  } catch (e) {
    const err = e as AppError;
    if (err.code === 'not_found') throw new AppError('not_found', `unknown model "${id}"`);
    throw new AppError(
      err.code ?? 'unavailable',
      `unknown model "${id}" (not in the embedded catalogue; ${err.message})`,
    );
  }
}
