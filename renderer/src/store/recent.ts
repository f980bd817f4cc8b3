import { create } from 'zustand';

/** A model or task page the person opened, newest first (the online start page lists them). */
export interface RecentPage {
  kind: 'model' | 'task';
  id: string;
  /** What the page is called (a task's label); a model's id is its name. */
  label?: string;
}

const KEY = 'hubdesk.recent';
export const RECENT_MAX = 6;

const isPage = (v: unknown): v is RecentPage => {
  const p = v as RecentPage;
  return (
    !!p &&
    (p.kind === 'model' || p.kind === 'task') &&
    typeof p.id === 'string' &&
    (p.label === undefined || typeof p.label === 'string')
  );
};

/** What localStorage holds; a damaged or missing entry (or no storage at all) is an empty list, never an error. */
function read(): RecentPage[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isPage).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

function write(pages: RecentPage[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(pages));
  } catch {
    // Storage full or refused (private mode): the list lasts this session only.
  }
}

interface RecentState {
  pages: RecentPage[];
  /** Puts a page first (once: opening it again moves it up), keeping the last RECENT_MAX. */
  visit(page: RecentPage): void;
  clear(): void;
}

export const useRecent = create<RecentState>((set, get) => ({
  pages: read(),
  visit: (page) => {
    const [first] = get().pages;
    if (first && first.kind === page.kind && first.id === page.id && first.label === page.label) return;
    const pages = [page, ...get().pages.filter((p) => p.kind !== page.kind || p.id !== page.id)].slice(0, RECENT_MAX);
    write(pages);
    set({ pages });
  },
  clear: () => {
    write([]);
    set({ pages: [] });
  },
}));
