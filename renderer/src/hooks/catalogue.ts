import type { SnippetsResult } from '@shared/contract/snippets';
import type { ModelRecord } from '@shared/model-record';
import { api } from '../api';
import { useQuery, type Query } from './query';

/** What the library's own generator writes for `record` (Library page). */
export function useLibrarySample(record: ModelRecord, enabled: boolean): Query<SnippetsResult> {
  const key = JSON.stringify(record);
  return useQuery(
    () => api.call('snippets.generate', { model: JSON.parse(key) as ModelRecord, kinds: ['library'] }),
    [key],
    enabled,
  );
}
