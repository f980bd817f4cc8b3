import type { CompareSetInput } from '@shared/contract/compare';
import { api } from '../api';
import { download } from '../lib/download';
import { useCompare } from '../store/compare';
import { useRoute } from '../store/route';
import { useAction, useQuery } from './query';

/** How the set would run (together or one after another), asked again whenever the panes or settings change. */
export function useComparePlan(set: CompareSetInput, ready: boolean) {
  const key = JSON.stringify(set);
  return useQuery(() => api.call('compare.plan', set), [key], ready, undefined, true);
}

/** The latest comparisons, newest first; `version` asks again (after a run). */
export function useRecentComparisons(version: unknown) {
  return useQuery(
    () => api.call('compare.recent', { limit: 10 }).then((r) => r.runs),
    [version],
    true,
    undefined,
    true,
  );
}

/** Opens an earlier comparison on the page. */
export function useOpenComparison() {
  return useAction(async (id: string) => {
    const run = await api.call('compare.get', { id });
    useCompare.getState().show(run);
    return run;
  });
}

/** This machine's wins, losses and ties per model and quant, from blind votes. */
export function useScoreboard(version: unknown) {
  return useQuery(() => api.call('compare.scoreboard', {}), [version], true, undefined, true);
}

/** The blind vote: reveals the names and counts on the scoreboard. */
export function useVote() {
  return useAction(async (id: string, winner: number | null) => {
    const run = await api.call('compare.vote', { id, winner });
    useCompare.getState().show(run);
    return run;
  });
}

/** "Continue in chat": that pane as a normal conversation, opened. */
export function useContinueInChat() {
  const go = useRoute((s) => s.go);
  return useAction(async (id: string, slot: number, run: number) => {
    const meta = await api.call('compare.continue', { id, slot, run });
    go('chat', meta.id);
    return meta;
  });
}

/** The comparison as a Markdown file, downloaded. */
export function useExportComparison() {
  return useAction(async (id: string) => {
    const f = await api.call('compare.export', { id });
    download(f.filename, f.text, f.mime);
    return f;
  });
}

/** The saved sets; `version` asks again (after a save or delete). */
export function useSavedSets(version: unknown) {
  return useQuery(() => api.call('compare.sets', {}).then((r) => r.sets), [version], true, undefined, true);
}

export function useSaveSet() {
  return useAction((name: string, set: CompareSetInput) => api.call('compare.sets.save', { name, set }));
}

export function useDeleteSet(onDone: () => void) {
  return useAction(async (id: string) => {
    const r = await api.call('compare.sets.delete', { id });
    onDone();
    return r;
  });
}
