import { useEffect, useState } from 'react';
import type { Input } from '@shared/contract';
import type { LocalModels } from '@shared/contract/local-models';
import type { Download } from '@shared/contract/local-downloads';
import type { EngineStatus } from '@shared/contract/local-engine';
import type { LocalServerStatus, RequestLogEntry } from '@shared/contract/local-server';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { useAction, useQuery } from './query';
import { listenWatch } from './watch';

// The built-in llama.cpp engine, as screens see it: models on disk, downloads, what is loaded, the local server.

/** The GGUFs on disk and the folders scanned; `refresh` scans again (after adding a folder, a download…). */
export function useLocalLibrary() {
  const q = useQuery(() => api.call('local.models', {}), [], true, undefined, true);
  const rescan = useAction(async () => {
    const data = await api.call('local.models', { refresh: true });
    await q.revalidate();
    return data;
  });
  return { ...q, data: q.last as LocalModels | undefined, rescan };
}

/** Adds a folder, forgets one, or deletes a downloaded model; each answers with the new library (`run` too). */
export function useLibraryActions(then: (library: LocalModels) => void) {
  const after = (library: LocalModels) => (then(library), library);
  return {
    addFolder: useAction(async (path: string) => after(await api.call('local.folders.add', { path }))),
    forgetFolder: useAction(async (path: string) => after(await api.call('local.folders.forget', { path }))),
    remove: useAction(async (id: string) => after(await api.call('local.delete', { id }))),
  };
}

/**
 * The download queue, live: main sends a snapshot on each change while a screen listens. A lost connection shows
 * the error and listens again after a pause, with the last list kept on screen.
 */
export function useDownloads(): { downloads?: Download[]; error?: AppErrorShape } {
  const [downloads, setDownloads] = useState<Download[]>();
  const [error, setError] = useState<AppErrorShape>();
  useEffect(
    () =>
      listenWatch(
        'local.downloads.watch',
        {},
        (last) => {
          setDownloads(last.downloads);
          setError(undefined);
        },
        setError,
      ),
    [],
  );
  return { downloads, error };
}

/** Start, pause, resume, cancel and dismiss: each answers with the download, which the watch then shows. */
export function useDownloadActions() {
  return {
    start: useAction((input: Input<'local.download.start'>) => api.call('local.download.start', input)),
    pause: useAction((id: string) => api.call('local.download.pause', { id })),
    resume: useAction((id: string) => api.call('local.download.resume', { id })),
    restart: useAction((id: string) => api.call('local.download.restart', { id })),
    cancel: useAction((id: string) => api.call('local.download.cancel', { id })),
    dismiss: useAction((id: string) => api.call('local.download.dismiss', { id })),
  };
}

const STATUS_POLL_MS = 5000;

/**
 * What the built-in engine has loaded (and its memory), asked every 5 s while shown so an idle unload shows up;
 * load, unload, keep-alive and the CPU threads answer with the new status at once.
 */
export function useEngineStatus() {
  const q = useQuery(() => api.call('local.status', {}), [], true, undefined, true);
  const { revalidate } = q;
  const [fresh, setFresh] = useState<EngineStatus>();
  useEffect(() => {
    const t = setInterval(() => void revalidate().then(() => setFresh(undefined)), STATUS_POLL_MS);
    return () => clearInterval(t);
  }, [revalidate]);
  const shown = (s: EngineStatus) => (setFresh(s), s);
  return {
    status: fresh ?? q.last,
    error: q.state === 'error' ? q.error : undefined,
    load: useAction(async (input: Input<'local.load'>) => shown(await api.call('local.load', input))),
    unload: useAction(async (id?: string) => shown(await api.call('local.unload', id ? { id } : {}))),
    keepAlive: useAction(async (minutes: number) => shown(await api.call('local.keepAlive', { minutes }))),
    /** CPU threads per model from the next load on; 0 is the automatic count. */
    threads: useAction(async (threads: number) => shown(await api.call('local.threads', { threads }))),
  };
}

/** The small GGUF offered when nothing local is set up (undefined while asked, or when none fits). */
export const useRecommendation = (enabled = true) => useQuery(() => api.call('local.recommend', {}), [], enabled);

/** The local OpenAI-compatible server: its status, and turning it on or off, its port and its key. */
export function useLocalServer() {
  const q = useQuery(() => api.call('local.server.status', {}), []);
  const [fresh, setFresh] = useState<LocalServerStatus>();
  const set = useAction(async (input: Input<'local.server.set'>) => {
    const s = await api.call('local.server.set', input);
    setFresh(s);
    return s;
  });
  const generate = useAction(async () => {
    const s = await api.call('local.server.key.generate', {});
    setFresh(s);
    return s;
  });
  return { ...q, status: fresh ?? (q.state === 'ok' ? q.data : undefined), set, generate };
}

/**
 * "Copy key": the desktop app's main writes the key to the clipboard itself; the web mode answers it once, and it
 * goes straight to the browser's clipboard, held in no state. True once copied, false where the clipboard refused.
 */
export async function copyServerKey(): Promise<boolean> {
  const { copied, key } = await api.call('local.server.key.copy', {});
  if (copied) return true;
  if (!key || !navigator.clipboard) return false;
  return navigator.clipboard.writeText(key).then(
    () => true,
    () => false,
  );
}

/** "Use from another app": each app's setup for one local chat model (nothing asked until a model is chosen). */
export function useServerSetups(model: string | undefined) {
  return useQuery(() => api.call('local.server.setups', { model: model ?? '' }), [model], !!model);
}

/**
 * The local server's recent requests (newest first), live: main sends the list at once and on each change while
 * the card listens. A lost connection shows the error and listens again after a pause, the last list kept.
 */
export function useRequestLog(): { entries?: RequestLogEntry[]; error?: AppErrorShape } {
  const [entries, setEntries] = useState<RequestLogEntry[]>();
  const [error, setError] = useState<AppErrorShape>();
  useEffect(
    () =>
      listenWatch(
        'local.server.log.watch',
        {},
        (last) => {
          setEntries(last.entries);
          setError(undefined);
        },
        setError,
      ),
    [],
  );
  return { entries, error };
}

/** Empties the request log (the watch then shows it empty). */
export const useClearRequestLog = () => useAction(() => api.call('local.server.log.clear', {}));

/** A logged request's kept body and reply, asked while its details are open. */
export const useRequestBodies = (id: string) => useQuery(() => api.call('local.server.log.entry', { id }), [id]);
