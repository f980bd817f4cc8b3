import { useCallback, useEffect, useState } from 'react';
import { modelMismatch, routerKey, routerKeyProblem } from '@shared/chat-model';
import type { ConversationMeta, ToolSource } from '@shared/contract/chat';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { useSettings } from '../store/settings';
import { useEndpointList } from './endpoints';

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

/** Files to download: one conversation as Markdown or JSON, or every conversation in one archive. */
export const chatFiles = {
  export: (id: string, format: 'markdown' | 'json') => api.call('chat.export', { id, format }),
  exportAll: () => api.call('chat.exportAll', {}),
};

/** What the chat screen asks about a conversation and the models it can use. */
export const chatInfo = {
  /** What the conversation's model can do (Ollama `show` capabilities: vision, tools, thinking…). */
  capabilities: (id: string) => api.call('chat.capabilities', { id }),
  /** The Ollama models that can chat (embedding-only ones left out), loaded ones marked. */
  models: () => api.call('chat.models', {}),
  /** "Open as code": the conversation as runnable snippets. */
  code: (id: string) => api.call('chat.code', { id }),
};

/**
 * Why a conversation cannot be answered as it stands, said before sending (main refuses with the same words): a
 * model its engine cannot use, a router that would get no Hugging Face token, or an endpoint since removed.
 * `inSettings`: the fix is on the Settings page (else in the conversation's own settings).
 */
export function useSendBlock(
  meta: Pick<ConversationMeta, 'backend' | 'model' | 'endpoint'>,
): { message: string; inSettings: boolean } | undefined {
  const view = useSettings((s) => s.view);
  const endpoints = useEndpointList(meta.backend === 'endpoint');
  if (meta.backend === 'endpoint' && endpoints && !endpoints.some((e) => e.id === meta.endpoint))
    return {
      message:
        'The endpoint this conversation used was removed: choose another engine in its Settings, or add the server again under Settings → Endpoints.',
      inSettings: false,
    };
  const mismatch = modelMismatch(meta.backend, meta.model);
  if (mismatch) return { message: mismatch, inSettings: false };
  const key = meta.backend === 'provider' ? routerKey(view) : undefined;
  if (!view || !key || key === 'ready') return undefined;
  return { message: routerKeyProblem(key, view.values.routerUrl), inSettings: true };
}
