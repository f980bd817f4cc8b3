import { create } from 'zustand';
import type { DoctorReport, Endpoint, EndpointSave } from '@shared/contract/endpoints';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';

interface EndpointsState {
  /** Undefined until main has answered once. */
  list?: Endpoint[];
  error?: AppErrorShape;
  /** A list call is on its way (ensure asks once). */
  listing?: boolean;
  load(): Promise<void>;
  /** Loads the list once, for screens that only read it (the chat's engine choice). */
  ensure(): void;
  /** Saves (main runs the doctor first) and answers its report; throws what main refused. */
  save(input: EndpointSave): Promise<{ endpoint: Endpoint; report: DoctorReport }>;
  remove(id: string): Promise<void>;
  test(id: string): Promise<DoctorReport>;
}

/**
 * The user's OpenAI-compatible endpoints, as main keeps them (never a key's value): Settings → Endpoints edits them,
 * the chat offers each as an engine.
 */
export const useEndpoints = create<EndpointsState>((set, get) => {
  const load = async () => {
    set({ listing: true });
    try {
      set({ list: (await api.call('endpoints.list', {})).endpoints, error: undefined });
    } catch (e) {
      set({ error: e as AppErrorShape });
    } finally {
      set({ listing: false });
    }
  };
  return {
    load,
    ensure: () => {
      if (!get().list && !get().listing) void load();
    },
    save: async (input) => {
      const r = await api.call('endpoints.save', input);
      const list = get().list ?? [];
      set({
        list: list.some((e) => e.id === r.endpoint.id)
          ? list.map((e) => (e.id === r.endpoint.id ? r.endpoint : e))
          : [...list, r.endpoint],
      });
      return r;
    },
    remove: async (id) => {
      await api.call('endpoints.remove', { id });
      set({ list: get().list?.filter((e) => e.id !== id) });
    },
    test: (id) => api.call('endpoints.test', { id }),
  };
});
