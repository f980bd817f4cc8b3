import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { modelMismatch } from '@shared/chat-model';
import type { ConversationMeta, ToolSource } from '@shared/contract/chat-conversation';
import type { Output } from '@shared/contract';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { engineFacts, newChatOf, type SendBlock } from '../lib/engines';
import { useChat } from '../store/chat';
import { dropIfUntouched } from '../store/chat-untouched';
import { hrefFor, useRoute } from '../store/route';
import { useSettings } from '../store/settings';
import { useEndpointList } from './endpoints';
import { useQuery, type Query } from './query';

/**
 * The tool sources a conversation can turn on (the web tools and each MCP server). While `watching` and a server
 * is still starting, its state and tools are asked again each second.
 */
export function useToolSources(watching: boolean): {
  sources?: ToolSource[];
  error?: AppErrorShape;
  reload(): void;
} {
  // Each ask (Retry, opening, the poll) clears the error; the last list stays listed meanwhile (`last`).
  const q = useQuery(() => api.call('chat.toolSources', {}).then((r) => r.sources), []);
  const { reload } = q;
  const sources = q.last;
  const settling = sources?.some((s) => s.state === 'starting' || s.state === 'restarting' || s.state === 'stopped');
  useEffect(() => {
    if (!watching || !settling) return;
    const t = setTimeout(reload, 1000);
    return () => clearTimeout(t);
  }, [watching, settling, sources, reload]);
  return { sources, error: q.state === 'error' ? q.error : undefined, reload };
}

const none: string[] = [];

/**
 * A query's last answer or error, kept on screen while it is asked again (the chat screen never blanks what it
 * shows while a newer answer is on its way; an answer to an older request is dropped by useQuery).
 */
function useKept<T>(q: Query<T>): { data?: T; error?: AppErrorShape } {
  const last = useRef<{ data?: T; error?: AppErrorShape }>({});
  if (q.state === 'ok' && last.current.data !== q.data) last.current = { data: q.data };
  else if (q.state === 'error' && last.current.error !== q.error) last.current = { error: q.error };
  return last.current;
}

/** What the conversation's model can do (Ollama `show` capabilities: vision, tools, thinking…); none without a model. */
export function useCapabilities(id: string, meta?: Pick<ConversationMeta, 'model' | 'backend' | 'endpoint'>): string[] {
  const on = !!meta?.model;
  const q = useQuery(() => api.call('chat.capabilities', { id }), [id, meta?.model, meta?.backend, meta?.endpoint], on);
  const kept = useKept(q).data?.capabilities;
  return on ? (kept ?? none) : none;
}

/** The names of the Ollama models that can chat (embedding-only ones left out), asked while `on`. */
export function useChatModelNames(on: boolean): string[] {
  const kept = useKept(useQuery(() => api.call('chat.models', {}), [], on));
  return useMemo(() => kept.data?.models.map((m) => m.name) ?? none, [kept.data]);
}

/** The inference providers the Hugging Face router offers for a Hub model (a router conversation can pin one). */
export function useRouterProviders(model: string, on: boolean): string[] {
  const kept = useKept(useQuery(() => api.call('hub.model', { id: model }), [model], on));
  const providers = useMemo(
    () => (kept.data?.model.inferenceProviderMapping ?? []).map((p) => p.provider),
    [kept.data],
  );
  return on ? providers : none;
}

/** "Open as code": the conversation as runnable snippets, asked again when `version` (its messages) changes. */
export function useChatCode(id: string, version: string): { data?: Output<'chat.code'>; error?: AppErrorShape } {
  return useKept(useQuery(() => api.call('chat.code', { id }), [id, version]));
}

/**
 * Why a conversation cannot be answered as it stands, said before sending (main refuses with the same words): a
 * model its engine cannot use, or what its engine lacks (lib/engines.ts): a router that would get no Hugging Face
 * token, an endpoint since removed.
 * `inSettings`: the fix is on the Settings page (else in the conversation's own settings).
 */
export function useSendBlock(meta: Pick<ConversationMeta, 'backend' | 'model' | 'endpoint'>): SendBlock | undefined {
  const view = useSettings((s) => s.view);
  const engine = engineFacts[meta.backend];
  const endpoints = useEndpointList(engine.onEndpoint);
  const mismatch = modelMismatch(meta.backend, meta.model);
  if (mismatch) return { message: mismatch, inSettings: false };
  return engine.blocked?.(meta, { endpoints, view });
}

/**
 * "New chat": the page leaves the open conversation at once for `#/chat/new`, which starts one (useNewChat), so what
 * is typed while main creates it is not sent to the conversation left.
 */
export function useStartChat(): () => void {
  const go = useRoute((s) => s.go);
  return useCallback(() => go('chat', 'new'), [go]);
}

/** One conversation per address, even when an effect runs twice (StrictMode) or the page re-renders mid-way. */
let starting: string | undefined;

/**
 * On `#/chat/new` (the model `create` picks) or `#/chat/new/<backend>/<model>` (see newChatHref): starts the
 * conversation, then shows it in place of that address, so Back does not start another. `params` is the address
 * after `new`, undefined on any other. What went wrong is returned, with a retry when trying again can help.
 */
export function useNewChat(params: readonly string[] | undefined): { error?: AppErrorShape; retry?: () => void } {
  const [failed, setFailed] = useState<{ key: string; error: AppErrorShape; retry: boolean }>();
  const [attempt, setAttempt] = useState(0);
  const key = params && JSON.stringify(params);
  useEffect(() => {
    if (key === undefined || starting === key) return;
    const parts = JSON.parse(key) as string[];
    const init = parts.length ? newChatOf(parts) : {};
    if (!init) {
      const message = `This link does not name a model to chat with (${parts.join('/')}).`;
      setFailed({ key, error: { code: 'invalid_input', message }, retry: false });
      return;
    }
    starting = key;
    setFailed(undefined);
    const address = location.hash;
    void useChat
      .getState()
      .create(init)
      .then(
        // Left meanwhile (another conversation, another page): the person is not taken back, nor an empty chat kept.
        (meta) => (location.hash === address ? location.replace(hrefFor('chat', meta.id)) : dropIfUntouched(meta.id)),
        (e: unknown) => setFailed({ key, error: e as AppErrorShape, retry: true }),
      )
      .finally(() => (starting = undefined));
  }, [key, attempt]);
  const shown = failed?.key === key ? failed : undefined;
  return { error: shown?.error, retry: shown?.retry ? () => setAttempt((n) => n + 1) : undefined };
}
