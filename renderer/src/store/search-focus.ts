import { create } from 'zustand';

/** Ctrl/Cmd+K asks the catalogue's search box to take focus, once it is on screen. */
export const useSearchFocus = create<{ request: number; focus(): void }>((set) => ({
  request: 0,
  focus: () => set((s) => ({ request: s.request + 1 })),
}));
