import type { LineageRelation, RepoLink } from '@shared/contract/hub-repo';
import type { SnippetsResult } from '@shared/contract/snippets';
import type { AppError } from '@shared/errors';
import type { ModelRecord } from '@shared/model-record';
import { useEffect, useState } from 'react';
import { isHubOff } from './hub';
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

export const LINEAGE_RELATIONS: LineageRelation[] = ['quantized', 'finetune', 'adapter', 'merge'];
export type Derived = Partial<Record<LineageRelation, { models: RepoLink[]; more: boolean }>>;

/**
 * The Hub repos derived from a model (quantizations, fine-tunes, adapters, merges), each list shown as it arrives.
 * With live Hub access off and nothing cached, the lists are simply absent.
 */
export function useDerivedRepos(id: string): { derived: Derived; error?: AppError } {
  const [derived, setDerived] = useState<Derived>({});
  const [error, setError] = useState<AppError>();
  useEffect(() => {
    let stale = false;
    setDerived({});
    setError(undefined);
    for (const relation of LINEAGE_RELATIONS)
      api.call('hub.derived', { id, relation }).then(
        (res) => !stale && setDerived((d) => ({ ...d, [relation]: res })),
        (e: unknown) => !stale && !isHubOff(e) && setError(e as AppError),
      );
    return () => {
      stale = true;
    };
  }, [id]);
  return { derived, error };
}

/** A Hub model's details (for the inference providers a router conversation can pin). */
export const hubModelDetails = (id: string) => api.call('hub.model', { id });

/** A library's most downloaded Hub models. */
export const topHubModels = (library: string, limit: number) =>
  api.call('hub.search', { kind: 'models', library, sort: 'downloads', limit });
