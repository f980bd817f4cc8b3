import { useRef, useState } from 'react';
import type { ChatParams, ConversationMeta } from '@shared/contract/chat-conversation';
import type { AppErrorShape } from '@shared/errors';
import { useChat } from '../../store/chat';

type Patch = Parameters<ReturnType<typeof useChat.getState>['update']>[1];

/** Saves a change to the conversation at once; the last failure is kept to show beside the control. */
export function useConversationSave(meta: ConversationMeta) {
  const update = useChat((s) => s.update);
  const [error, setError] = useState<AppErrorShape>();
  const save = async (patch: Patch) => {
    try {
      await update(meta.id, patch);
      setError(undefined);
    } catch (e) {
      setError(e as AppErrorShape);
    }
  };
  /** The parameters last sent, and the meta's they were built on (main's answer brings new ones). */
  const sent = useRef<{ base: ChatParams; params: ChatParams }>(undefined);
  /** One parameter: empty (undefined, []) removes it, so the engine's default applies. */
  const setParam = <K extends keyof ChatParams>(k: K, v: ChatParams[K]) => {
    // A change made before main has answered the last one builds on that one, not on the older meta.
    const base = sent.current?.base === meta.params ? sent.current.params : meta.params;
    const params = { ...base };
    if (v === undefined || (Array.isArray(v) && v.length === 0)) delete params[k];
    else params[k] = v;
    sent.current = { base: meta.params, params };
    void save({ params });
  };
  return { save, setParam, error };
}
