import { useEffect, useState } from 'react';
import type { DocTarget, Embedder, KnowledgeBase } from '@shared/contract/documents';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { isOllamaEmbedder } from '@shared/ollama-embedder';
import { useDocuments } from '../store/documents';
import { useAction, useQuery } from './query';
import { listenWatch } from './watch';

// Documents (#31) as screens see them: the bases and their indexing, live; attaching; the embedding model.

const NO_BASES: KnowledgeBase[] = [];

/**
 * The bases (named ones, and with `conversation` its own attachments' base), live from `docs.watch`: main sends a
 * snapshot on each change. A lost connection shows the error and listens again after a pause, the last list kept.
 */
export function useDocsWatch(conversation?: string): {
  bases?: KnowledgeBase[];
  error?: AppErrorShape;
} {
  const key = conversation ?? '';
  const bases = useDocuments((s) => s.bases[key]);
  const [error, setError] = useState<AppErrorShape>();
  useEffect(
    () =>
      listenWatch(
        'docs.watch',
        conversation ? { conversation } : {},
        (last) => {
          useDocuments.getState().setBases(key, last.bases);
          setError(undefined);
        },
        setError,
      ),
    [conversation, key],
  );
  return { bases: bases ?? (error ? NO_BASES : undefined), error };
}

/** Every change to bases and documents; each answers with the base, put on screen at once. */
export function useDocActions() {
  const put = (r: { base?: KnowledgeBase }) => (r.base && useDocuments.getState().putBase(r.base), r.base);
  return {
    create: useAction(async (name: string) => put(await api.call('docs.bases.create', { name }))),
    rename: useAction(async (id: string, name: string) => put(await api.call('docs.bases.rename', { id, name }))),
    remove: useAction(async (id: string) => {
      await api.call('docs.bases.delete', { id });
      useDocuments.getState().dropBase(id);
    }),
    attachPath: useAction(async (target: DocTarget, path: string) =>
      put(await api.call('docs.attachPath', { target, path })),
    ),
    attachPick: useAction(async (target: DocTarget, folder: boolean) =>
      put(await api.call('docs.attachPick', { target, folder })),
    ),
    removeSource: useAction(async (source: string) => put(await api.call('docs.remove', { source }))),
    pin: useAction(async (document: string, pinned: boolean) => put(await api.call('docs.pin', { document, pinned }))),
    cancel: useAction(async (base: string) => put(await api.call('docs.cancel', { base }))),
    resume: useAction(async (base: string) => put(await api.call('docs.resume', { base }))),
  };
}

/** A cited passage, to open (asked when `chunk` is set). */
export const usePassage = (chunk: number | undefined) =>
  useQuery(() => api.call('docs.passage', { chunk: chunk! }), [chunk], chunk !== undefined);

/** An embedding model one can pick: Ollama's, or the built-in engine's GGUF. */
export interface EmbedderChoice extends Embedder {
  label: string;
}

/**
 * The embedding model in use and the ones there are to pick (Ollama's embedding models, the built-in engine's
 * embedding GGUFs). Either list failing leaves the other; both failing shows the first error.
 */
export function useEmbedders() {
  const current = useQuery(() => api.call('docs.bases', {}), [], true, undefined, true);
  const choices = useQuery(
    async () => {
      const [ollama, local] = await Promise.allSettled([api.call('ollama.list', {}), api.call('local.models', {})]);
      const out: EmbedderChoice[] = [];
      if (ollama.status === 'fulfilled')
        for (const m of ollama.value.models)
          if (isOllamaEmbedder(m)) out.push({ backend: 'ollama', model: m.name, label: `${m.name} (Ollama)` });
      if (local.status === 'fulfilled')
        for (const m of local.value.models)
          if (m.embedding && !m.problem)
            out.push({ backend: 'local', model: m.id, label: `${m.title ?? m.name} (built-in)` });
      if (!out.length && ollama.status === 'rejected' && local.status === 'rejected') throw ollama.reason;
      return out;
    },
    [],
    true,
    undefined,
    true,
  );
  // Main may take a model by itself (the installed one, on attaching): the watched bases say which.
  const watched = useDocuments(
    (s) =>
      Object.values(s.bases)
        .flat()
        .find((b) => b.embedder)?.embedder,
  );
  const [fresh, setFresh] = useState<Embedder>();
  const set = useAction(async (e: Embedder) => {
    const r = await api.call('docs.embedder.set', { backend: e.backend, model: e.model });
    setFresh(r.embedder);
    return r.embedder;
  });
  return {
    embedder: fresh ?? watched ?? current.last?.embedder,
    choices,
    currentError: current.state === 'error' ? current.error : undefined,
    reload: () => void Promise.all([current.revalidate(), choices.revalidate()]),
    set,
  };
}
