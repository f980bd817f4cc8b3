import { useCallback, useEffect, useState } from 'react';
import type { ToolSource } from '@shared/contract/chat';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';

/**
 * The tool sources a conversation can turn on (the web tools and each MCP server). While `watching` and a server
 * is still starting, its state and tools are asked again each second.
 */
export function useToolSources(watching: boolean): {
  sources?: ToolSource[];
  error?: AppErrorShape;
  reload(): void;
} {
  const [sources, setSources] = useState<ToolSource[]>();
  const [error, setError] = useState<AppErrorShape>();
  const reload = useCallback(() => {
    setError(undefined);
    api.call('chat.toolSources', {}).then(
      (r) => setSources(r.sources),
      (e: AppErrorShape) => setError(e),
    );
  }, []);
  useEffect(reload, [reload]);
  const settling = sources?.some((s) => s.state === 'starting' || s.state === 'restarting' || s.state === 'stopped');
  useEffect(() => {
    if (!watching || !settling) return;
    const t = setTimeout(reload, 1000);
    return () => clearTimeout(t);
  }, [watching, settling, sources, reload]);
  return { sources, error, reload };
}
