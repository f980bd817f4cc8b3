import { create } from 'zustand';

/** The id of the catalogue's search box: Ctrl/Cmd+K focuses it from anywhere. */
export const SEARCH_INPUT_ID = 'catalogue-search';

interface SearchFocusState {
  request: number;
  /** The page Ctrl/Cmd+K left (a hash), where Escape in an empty search box returns. */
  returnTo?: string;
  focus(returnTo?: string): void;
  takeReturn(): string | undefined;
}

/** Ctrl/Cmd+K asks the catalogue's search box to take focus, once it is on screen. */
export const useSearchFocus = create<SearchFocusState>((set, get) => ({
  request: 0,
  focus: (returnTo) => set((s) => ({ request: s.request + 1, returnTo: returnTo ?? s.returnTo })),
  takeReturn: () => {
    const back = get().returnTo;
    set({ returnTo: undefined });
    return back;
  },
}));
