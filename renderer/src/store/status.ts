import { create } from 'zustand';
import type { OllamaStatus } from '@shared/contract/ollama';
import { api } from '../api';

interface StatusState {
  ollama?: OllamaStatus;
  checking: boolean;
  refresh(): Promise<void>;
}

/** Ollama reachability for the status bar; refreshed on a timer and after host changes. */
export const useStatus = create<StatusState>((set, get) => ({
  checking: false,
  refresh: async () => {
    if (get().checking) return;
    set({ checking: true });
    try {
      set({ ollama: await api.call('ollama.status', {}) });
    } catch (e) {
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
