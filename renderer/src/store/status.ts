import { create } from 'zustand';
import type { OllamaStatus } from '@shared/contract/ollama';
import type { AppErrorShape } from '@shared/errors';
import { api, webSecret } from '../api';
import { useSettings } from './settings';

interface StatusState {
  ollama?: OllamaStatus;
  checking: boolean;
  /**
   * Main refused this page's web secret (HubDesk restarted: the page's is stale), until a new one comes in the
   * address: the status bar says so instead of blaming Ollama.
   */
  refusal?: AppErrorShape;
  refresh(): Promise<void>;
}

/** Ollama reachability for the status bar; refreshed on a timer and after host changes. */
export const useStatus = create<StatusState>((set, get) => ({
  checking: false,
  refusal: webSecret?.refusal(),
  refresh: async () => {
    if (get().checking) return;
    set({ checking: true });
    try {
      set({ ollama: await api.call('ollama.status', {}) });
    } catch (e) {
      // A refused secret says nothing about Ollama.
      if (get().refusal) return;
      set({
        ollama: {
          host: get().ollama?.host ?? '',
          reachable: false,
          error: { code: 'unavailable', message: String((e as Error).message) },
        },
      });
    } finally {
      set({ checking: false });
    }
  },
}));

webSecret?.subscribe(() => {
  const refusal = webSecret?.refusal();
  useStatus.setState({ refusal });
  if (refusal) return;
  // A new secret: ask again what failed for want of it.
  void useStatus.getState().refresh();
  if (useSettings.getState().error) void useSettings.getState().load();
});
