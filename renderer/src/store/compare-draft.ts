import { create } from 'zustand';
import type { CompareSetInput } from '@shared/contract/compare';

/**
 * A comparison set handed to the Compare page by another page ("Compare quants" on a model page, "Compare" from a
 * chat): the page takes it once, as its panes, when it opens.
 */
interface CompareDraft {
  draft?: CompareSetInput;
  /** Why the set was opened, shown above the panes ("Q4_K_M against Q8_0 of bartowski/…"). */
  note?: string;
  offer(draft: CompareSetInput, note?: string): void;
  /** The draft, once: it is cleared as it is taken. */
  take(): { draft: CompareSetInput; note?: string } | undefined;
}

export const useCompareDraft = create<CompareDraft>((set, get) => ({
  offer: (draft, note) => set({ draft, note }),
  take: () => {
    const { draft, note } = get();
    if (!draft) return undefined;
    set({ draft: undefined, note: undefined });
    return { draft, note };
  },
}));
