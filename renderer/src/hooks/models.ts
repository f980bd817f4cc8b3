import { useEffect, useRef } from 'react';
import type { Input, Output } from '@shared/contract';
import type { LocalModel, RunningModel } from '@shared/contract/ollama';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { usePulls } from '../store/pulls';
import { useSettings } from '../store/settings';
import { useStatus } from '../store/status';
import { canChat } from '../lib/can-chat';
import { useAction, useQuery } from './query';

/** Deletes a local model (ollama.delete); `then` runs once Ollama has. */
export const useDeleteModel = (model: string, then: () => void) =>
  useAction(async () => {
    await api.call('ollama.delete', { model });
    then();
  });

/** Copies a local model to `destination` (ollama.copy), or renames it (copy, then delete); `then` gets the new name. */
export const useCopyModel = (source: string, then: (name: string) => void) =>
  useAction(async (destination: string, rename: boolean) => {
    await api.call('ollama.copy', { source, destination });
    if (rename) await api.call('ollama.delete', { model: source });
    then(destination.includes(':') ? destination : `${destination}:latest`);
  });

/** Text in, vectors out (ollama.embed). */
export const useEmbed = () =>
  useAction((input: Input<'ollama.embed'>): Promise<Output<'ollama.embed'>> => api.call('ollama.embed', input));

const PS_POLL_MS = 10_000;

/** The models loaded in memory (ollama ps), asked every 10 s and again after a pull or when `tick` changes. */
export function useRunningModels(tick: number): { models?: RunningModel[]; error?: AppErrorShape } {
  const generation = usePulls((s) => s.generation);
  // `keep`: the last list and error stay on screen while Ollama is asked again.
  const q = useQuery(() => api.call('ollama.ps', {}), [generation, tick], true, undefined, true);
  const { revalidate } = q;
  useEffect(() => {
    const t = setInterval(() => void revalidate(), PS_POLL_MS);
    return () => clearInterval(t);
  }, [revalidate, generation, tick]);
  return { models: q.last?.models, error: q.state === 'error' ? q.error : undefined };
}

/** A model's details (`ollama show`): licence, parameters, template, capabilities. */
export const useModelShow = (model: string) => useQuery(() => api.call('ollama.show', { model }), [model]);

/** canChat for `model`, asked of Ollama (`ollama show`). */
export function useCanChat(model: string): boolean | undefined {
  const show = useModelShow(model);
  return canChat(show.state === 'ok' ? show.data.capabilities : undefined);
}

/** While Ollama is down: 2 s, 4 s … 30 s between tries, so a stopped Ollama is not hammered. */
const retryDelay = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(1, failures));

/**
 * The models Ollama has pulled (ollama.list), read again after each pull, push or create and on `load`. While
 * Ollama is down the list is asked again on its own, backing off, and at once when the status bar sees Ollama answer
 * again. The last list stays while it is asked again; an error replaces nothing but the error.
 */
export function useLocalModels(): { models?: LocalModel[]; error?: AppErrorShape; load(): Promise<void> } {
  const generation = usePulls((s) => s.generation);
  const refreshStatus = useStatus((s) => s.refresh);
  const failures = useRef(0);
  // `keep`: asked again (a pull, a retry, Ollama back) with the last list or error on screen until it answers.
  const q = useQuery(
    async () => {
      try {
        const { models } = await api.call('ollama.list', {});
        failures.current = 0;
        return models;
      } catch (e) {
        failures.current++;
        void refreshStatus();
        throw e;
      }
    },
    [generation],
    true,
    undefined,
    true,
  );
  const load = q.revalidate;
  const error = q.state === 'error' ? q.error : undefined;

  // Each failed try sets a new error, which schedules the next one.
  useEffect(() => {
    if (!error) return;
    const t = window.setTimeout(() => void load(), retryDelay(failures.current));
    return () => window.clearTimeout(t);
  }, [error, load]);
  // Only on the change to reachable, so no loop.
  const reachable = useStatus((s) => s.ollama?.reachable);
  const wasReachable = useRef(reachable);
  useEffect(() => {
    if (reachable && wasReachable.current === false) void load();
    wasReachable.current = reachable;
  }, [reachable, load]);
  return { models: q.last, error, load };
}

/**
 * The pull form's Hub suggestions, asked only with live Hub access on: the GGUF repos matching `search`, or the
 * quants of `repo` (from its file list). The last answer stays while the next is asked, so the list does not blink.
 */
export function useHubPullSuggestions({ repo, search }: { repo?: string; search?: string }): {
  repos: string[];
  quants: { label: string; size?: number }[];
} {
  const hubOn = useSettings((s) => s.view?.values.hubAccess === 'online');
  const found = useQuery(
    () => api.call('hub.search', { kind: 'models', search, runsLocally: 'gguf', sort: 'downloads', limit: 5 }),
    [search],
    hubOn && !!search,
    undefined,
    true,
  );
  const model = useQuery(() => api.call('hub.model', { id: repo ?? '' }), [repo], hubOn && !!repo, undefined, true);
  const q = search?.toLowerCase() ?? '';
  return {
    repos:
      hubOn && search ? (found.last?.results ?? []).map((r) => r.id).filter((id) => id.toLowerCase().includes(q)) : [],
    quants: hubOn && repo && model.last?.model.id.toLowerCase() === repo.toLowerCase() ? model.last.quants : [],
  };
}
