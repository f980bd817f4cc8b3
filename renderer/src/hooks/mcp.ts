import { useCallback, useEffect, useRef, useState } from 'react';
import type { McpConfigView, McpServersView, McpToolResult } from '@shared/contract/mcp';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { useAction } from './query';
import { plural } from '@shared/plural';

/** How often the page asks for server status: starting and restarting servers change on their own. */
const POLL_MS = 1000;

export interface McpState {
  config?: McpConfigView;
  servers?: McpServersView;
  /** The editor's text; differs from config.text while the user edits. */
  draft: string;
  /** Bumped when the editor must show `draft` (load, save, import, sample). */
  editorRevision: number;
  loadError?: AppErrorShape;
  busy: boolean;
  notice?: { kind: 'ok' | 'error'; text: string };
}

// Stays off useQuery: load and the poll write into the editor's state (draft, revision, notice) that saves share.
export function useMcp() {
  const [s, setS] = useState<McpState>({ draft: '', editorRevision: 0, busy: false });
  const dirty = s.config !== undefined && s.draft !== s.config.text;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const configRevision = useRef<number | undefined>(undefined);
  configRevision.current = s.config?.revision;
  // A save or import of ours in flight: the poll must not take its new revision for an edit on disk.
  const writing = useRef(0);

  const showConfig = useCallback((config: McpConfigView, notice?: McpState['notice']) => {
    configRevision.current = config.revision;
    setS((p) => ({ ...p, config, draft: config.text, editorRevision: p.editorRevision + 1, notice, busy: false }));
  }, []);

  const load = useCallback(async () => {
    try {
      const [config, servers] = await Promise.all([
        api.call('mcp.config.get', {}),
        api.call('mcp.servers', { connect: true }),
      ]);
      setS((p) => ({ ...p, loadError: undefined, servers }));
      showConfig(config);
    } catch (e) {
      setS((p) => ({ ...p, loadError: e as AppErrorShape }));
    }
  }, [showConfig]);

  useEffect(() => void load(), [load]);

  // Status polling; a new config revision (saved here or edited on disk) reloads the text unless the user is editing.
  useEffect(() => {
    let stopped = false;
    let notifiedRevision: number | undefined;
    const timer = setInterval(async () => {
      try {
        // Only a changed config starts servers: one the user stopped stays stopped.
        const servers = await api.call('mcp.servers', {});
        if (stopped) return;
        setS((p) => ({ ...p, servers }));
        if (writing.current > 0) return;
        if (servers.revision !== configRevision.current && dirtyRef.current && notifiedRevision !== servers.revision) {
          notifiedRevision = servers.revision;
          const text = 'mcp.json changed outside this editor: Revert to load it, or Save to replace it.';
          setS((p) => ({ ...p, notice: { kind: 'error', text } }));
        }
        if (servers.revision !== configRevision.current && !dirtyRef.current) {
          const config = await api.call('mcp.config.get', {});
          if (stopped || dirtyRef.current || writing.current > 0) return;
          showConfig(config);
          const started = await api.call('mcp.servers', { connect: true });
          if (!stopped) setS((p) => ({ ...p, servers: started }));
        }
      } catch {
        // The next tick tries again; a load error is shown by `load`.
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [showConfig]);
  const run = useCallback(
    async (work: () => Promise<McpConfigView>, ok: string): Promise<boolean> => {
      setS((p) => ({ ...p, busy: true, notice: undefined }));
      writing.current += 1;
      try {
        const view = await work();
        if (!view.saved) {
          // Keep the user's text: the errors point into it.
          setS((p) => ({
            ...p,
            busy: false,
            config: { ...view, text: p.config?.text ?? '' },
            notice: { kind: 'error', text: `Not saved: ${plural(view.errors.length, 'problem')} to fix.` },
          }));
          return false;
        }
        showConfig(view, { kind: 'ok', text: ok });
        const servers = await api.call('mcp.servers', { connect: true });
        setS((p) => ({ ...p, servers }));
        return true;
      } catch (e) {
        setS((p) => ({ ...p, busy: false, notice: { kind: 'error', text: (e as AppErrorShape).message } }));
        return false;
      } finally {
        writing.current -= 1;
      }
    },
    [showConfig],
  );

  return {
    ...s,
    dirty,
    load,
    setDraft: (draft: string) => setS((p) => ({ ...p, draft })),
    replaceDraft: (draft: string) => setS((p) => ({ ...p, draft, editorRevision: p.editorRevision + 1 })),
    // The text as it is now on disk (it may have changed while the user edited).
    revert: () =>
      void api.call('mcp.config.get', {}).then(
        (config) => showConfig(config),
        (e: AppErrorShape) => setS((p) => ({ ...p, notice: { kind: 'error', text: e.message } })),
      ),
    save: () => run(() => api.call('mcp.config.save', { text: s.draft }), 'Saved mcp.json.'),
    importText: (text: string, file: string) =>
      run(() => api.call('mcp.config.import', { text }), `Imported the servers of ${file}.`),
    /** Asks for the servers' status now (after a start, restart or stop); a failure waits for the next poll. */
    refreshStatus: async () => {
      try {
        const servers = await api.call('mcp.servers', {});
        setS((p) => ({ ...p, servers }));
      } catch {
        // The poll asks again within a second.
      }
    },
  };
}

/** One server's buttons: start/restart/stop, and its stderr log. */
export function useMcpServer(name: string) {
  const control = useAction((action: 'mcp.start' | 'mcp.restart' | 'mcp.stop') => api.call(action, { name }));
  const log = useAction(() => api.call('mcp.log', { name }));
  return { control, log };
}

/** "Try it": runs one tool of a server by hand, as a stream so the user can cancel it. */
export function useToolCall(server: string, tool: string) {
  const cancelRef = useRef<() => void>(undefined);
  const call = useAction(async (args: Record<string, unknown>): Promise<McpToolResult> => {
    const handle = api.stream('mcp.callTool', { server, tool, arguments: args }, () => {});
    cancelRef.current = handle.cancel;
    try {
      return await handle.result;
    } finally {
      cancelRef.current = undefined;
    }
  });
  return { ...call, cancel: () => cancelRef.current?.() };
}
