import type { ChatBackend, ConversationMeta } from '@shared/contract/chat-conversation';
import type { Endpoint } from '@shared/contract/endpoints';
import type { GgufQuant } from '@shared/contract/hub-repo';
import { useChatModelNames, useRouterProviders } from '../../hooks/chat';
import { useEndpointList, useEndpointModels } from '../../hooks/endpoints';
import { engineFacts, type QuantEngine } from '../../lib/engines';
import { useStatus } from '../../store/status';
import { endpoint } from './endpoint';
import { local } from './local';
import { useLocalQuants } from './local/quants';
import { ollama } from './ollama';
import { useOllamaQuants } from './ollama/quants';
import { provider } from './provider';
import type { EngineChoice, EngineUi, PickerLists, QuantTarget } from './types';

/**
 * Each chat engine's parts for the screens, by backend, in the order an engine choice lists them. A new engine is a
 * file or folder beside these and its line here, in `engines` and in the hook lists below (useAnyEngine, and
 * useQuantTargets if Compare quants can fetch for it), with its plain facts in lib/engines.ts. The pages ask this
 * registry and never name an engine.
 */
const engines: Record<ChatBackend, EngineUi> = { ollama, local, provider, endpoint };

export const engineUi = (backend: ChatBackend): EngineUi => engines[backend];

/** Every engine's entries in an engine choice (chat header, Compare pane): Ollama, built-in, router, endpoints. */
export const engineChoices = (endpoints: readonly Endpoint[]): EngineChoice[] =>
  Object.values(engines).flatMap((e) => e.choices(endpoints));

/** The model as the chat names it: a local model by its file name, not its whole path or id. */
export const shownModel = (meta: Pick<ConversationMeta, 'backend' | 'model'>): string =>
  engines[meta.backend].shownModel?.(meta.model) ?? meta.model;

/** The engine a conversation's replies come from, by name: "Ollama", "HF router · auto", "llama.cpp — my box". */
export function useEngineName(meta: Pick<ConversationMeta, 'backend' | 'provider' | 'endpoint'>): {
  name: string;
  where: string;
} {
  const endpoints = useEndpointList(engineFacts[meta.backend].onEndpoint);
  return engines[meta.backend].name(meta, endpoints);
}

/** What an empty conversation says when its engine cannot answer on this computer; undefined while it can. */
export const useEngineDown = (backend: ChatBackend): string | undefined => useStatus((s) => engines[backend].down?.(s));

/** Whether tools are offered to the conversation's model. */
export const canCallTools = (meta: Pick<ConversationMeta, 'backend' | 'model'>, capabilities: readonly string[]) =>
  engines[meta.backend].canCallTools?.(meta, capabilities) ?? true;

/** What the chat header's pickers list (see PickerLists), asked as the conversation's engine says. */
export function usePickerLists(meta: Pick<ConversationMeta, 'backend' | 'model'>): PickerLists {
  const asks = engines[meta.backend].asks;
  const endpoints = useEndpointList();
  // Asked on every engine: switching to an endpoint can then keep the model, or take the one it serves.
  const { lists: endpointLists, setContext } = useEndpointModels((endpoints ?? []).map((e) => e.id));
  const ollamaModels = useChatModelNames(!!asks?.ollamaModels);
  const providers = useRouterProviders(meta.model, !!asks?.routerProviders?.(meta.model));
  return { endpoints, endpointLists, setContext, ollamaModels, providers };
}

/** Whether any engine can answer here (Compare's empty state); undefined while one might but is not known yet. */
export function useAnyEngine(): boolean | undefined {
  const ready = [ollama.useReady(), local.useReady(), provider.useReady(), endpoint.useReady()];
  return ready.includes(true) ? true : ready.includes(undefined) ? undefined : false;
}

/**
 * The engines Compare quants can run a repo's quants on, each with where the quants stand there (one line per engine
 * in lib/engines.ts that has `quants`). `ours`: the transfers the dialog started, by engine.
 */
export function useQuantTargets(
  repo: string,
  quants: readonly GgufQuant[],
  ours: Partial<Record<QuantEngine, readonly string[]>>,
): QuantTarget[] {
  return [useOllamaQuants(repo, quants, ours.ollama ?? []), useLocalQuants(repo, quants, ours.local ?? [])];
}
