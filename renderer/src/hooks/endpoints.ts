import { useCallback, useEffect, useState } from 'react';
import type { Endpoint, EndpointModel } from '@shared/contract/endpoints';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { useEndpoints } from '../store/endpoints';

/** The user's endpoints, read from main once when a screen first needs them (`enabled`). */
export function useEndpointList(enabled = true): Endpoint[] | undefined {
  const list = useEndpoints((s) => s.list);
  useEffect(() => {
    if (enabled) useEndpoints.getState().ensure();
  }, [enabled]);
  return list;
}

/** One endpoint's models, or why it did not list them; absent while it has not answered. */
export type EndpointModels = { models: EndpointModel[] } | { error: AppErrorShape };

/**
 * The models each endpoint serves (`/v1/models`, with the context length the server runs each with), asked of all
 * at once; each list shows as it comes, so an endpoint that is slow to fail does not hold up the others.
 * `setContext` keeps the context length the user gives for a model whose server does not say it, and lists it.
 */
// Stays off useQuery: one answer per endpoint, each shown as it comes (and edited by setContext), not one answer.
export function useEndpointModels(ids: readonly string[]): {
  lists: Record<string, EndpointModels>;
  setContext(id: string, model: string, contextLength: number): Promise<void>;
} {
  const key = ids.join(' ');
  const [lists, setLists] = useState<Record<string, EndpointModels>>({});
  useEffect(() => {
    let live = true;
    setLists({});
    for (const id of key ? key.split(' ') : []) {
      const put = (v: EndpointModels) => live && setLists((l) => ({ ...l, [id]: v }));
      api.call('endpoints.models', { id }).then(
        (r) => put({ models: r.models }),
        (error: AppErrorShape) => put({ error }),
      );
    }
    // Answers for a list of endpoints that has since changed (or a page that left) are dropped.
    return () => {
      live = false;
    };
  }, [key]);
  const setContext = useCallback(async (id: string, model: string, contextLength: number) => {
    await api.call('endpoints.setContext', { id, model, contextLength });
    setLists((l) => {
      const list = l[id];
      if (!list || !('models' in list)) return l;
      const models = list.models.map((m) =>
        m.id === model ? { ...m, contextLength, contextSource: 'user' as const } : m,
      );
      return { ...l, [id]: { models } };
    });
  }, []);
  return { lists, setContext };
}
