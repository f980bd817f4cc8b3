import type { ComponentType } from 'react';
import type { ChatBackend, ChatParams, ConversationMeta } from '@shared/contract/chat-conversation';
import type { ComparePaneInput } from '@shared/contract/compare';
import type { Endpoint } from '@shared/contract/endpoints';
import type { EndpointModels } from '../../hooks/endpoints';
import type { QuantEngine, QuantWords } from '../../lib/engines';
import type { useChat } from '../../store/chat';
import type { useStatus } from '../../store/status';
import type { ChatWithModelProps } from './ChatLink';

/** A change to a conversation, as the chat store's `update` takes it. */
export type ConversationPatch = Parameters<ReturnType<typeof useChat.getState>['update']>[1];

/** One entry of an engine choice: the chat header's radios, a Compare pane's select. */
export interface EngineChoice {
  /** The engine's backend, or an endpoint's id (`e_…`, never a backend's name). */
  key: string;
  label: string;
  /**
   * What a conversation or pane takes on choosing it, given its model: the engine, and the model if it fits there.
   * With the endpoints' model lists (the chat header has them) an endpoint keeps the model when it serves it too, or
   * takes the one it serves; without them its model is chosen anew.
   */
  patch(
    model: string,
    lists?: Record<string, EndpointModels>,
  ): { backend: ChatBackend; endpoint?: string; model: string };
}

/**
 * What the chat header's pickers have at hand. Asked whichever engine is on (each list while some engine's `asks`
 * says so), so a switch of engine shows the last lists at once while they are asked again.
 */
export interface PickerLists {
  endpoints?: Endpoint[];
  /** Each endpoint's models: switching to an endpoint can then keep the model, or take the one it serves. */
  endpointLists: Record<string, EndpointModels>;
  setContext(id: string, model: string, contextLength: number): Promise<void>;
  /** The names of Ollama's chat models. */
  ollamaModels: string[];
  /** The inference providers the router offers for the conversation's model. */
  providers: string[];
}

/** A part of the chat header for the conversation's engine. */
export interface ConversationPartProps {
  meta: ConversationMeta;
  lists: PickerLists;
  save(patch: ConversationPatch): Promise<void>;
}

/** A Compare pane's model picker on the pane's engine. */
export interface PanePickerProps {
  pane: ComparePaneInput;
  endpoints: Endpoint[];
  onChange(p: Partial<ComparePaneInput>): void;
}

/** An engine's own fields in a conversation's More settings. */
export interface EngineSettingsProps {
  meta: ConversationMeta;
  setParam<K extends keyof ChatParams>(k: K, v: ChatParams[K]): void;
}

type StatusState = ReturnType<typeof useStatus.getState>;

/**
 * One chat engine as the screens show it (registry.ts holds one per `ChatBackend`). What the lower rungs need of it
 * (the endpoint it runs on, what blocks a reply, new-chat links, Compare quants' words) is in lib/engines.ts.
 */
export interface EngineUi {
  /** Its entries in an engine choice: itself, or one per endpoint. */
  choices(endpoints: readonly Endpoint[]): EngineChoice[];
  /** The entry a conversation or pane on it has chosen (an `EngineChoice` key). */
  choiceKey(on: { endpoint?: string }): string;
  /** Its name in the chat header ("HF router · auto"), and where the replies come from (that name's title). */
  name(
    meta: Pick<ConversationMeta, 'provider' | 'endpoint'>,
    endpoints: readonly Endpoint[] | undefined,
  ): { name: string; where: string };
  /** The model as the chat names it (header, list, composer), when not its id as is. */
  shownModel?(model: string): string;
  /** What its header picker lists (see PickerLists): Ollama's models; the router's providers for this model. */
  asks?: { ollamaModels?: boolean; routerProviders?(model: string): boolean };
  /** Its model picker in the chat header. */
  ConversationPicker: ComponentType<ConversationPartProps>;
  /** Under the header's controls: what it says of the chosen model, or why it cannot answer. */
  ConversationNotes?: ComponentType<ConversationPartProps>;
  /** Its model picker in a Compare pane. */
  PanePicker: ComponentType<PanePickerProps>;
  /** Its own fields in More settings, beside the sampling parameters. */
  Settings?: ComponentType<EngineSettingsProps>;
  /** Whether tools are offered to the model, given what the engine says it can do (every engine but Ollama: yes). */
  canCallTools?(meta: Pick<ConversationMeta, 'model'>, capabilities: readonly string[]): boolean;
  /**
   * What an empty conversation says when the engine cannot answer on this computer (the status bar's checks),
   * instead of where the replies come from; the page then offers the built-in engine.
   */
  down?(status: StatusState): string | undefined;
  /**
   * Whether it has something to answer with here (a model, a server, a token); undefined while that is not known.
   * A hook: the registry calls every engine's, in a fixed order.
   */
  useReady(): boolean | undefined;
  /** "Chat with" one of its models, when more than a new-chat link (Ollama asks whether the model can chat). */
  ChatWithModel?: ComponentType<ChatWithModelProps>;
}

/** Where one quant stands on an engine: here (as which model), being fetched (by which job), or missing (and why). */
export type Presence =
  | { kind: 'here'; model: string }
  | { kind: 'busy'; pct: number; text: string; job: string }
  | { kind: 'missing'; error?: string; cancelled?: boolean };

/**
 * An engine Compare quants can run a GGUF repo's quants on, as the dialog sees it: each quant's presence there (from
 * the same stores the page's own Pull and Download buttons use, so a transfer started there shows here too), and how
 * it fetches the missing ones.
 */
export interface QuantTarget {
  engine: QuantEngine;
  words: QuantWords;
  /** Its radio: the engine's name, and beside it how it runs the quants or why it cannot. */
  name: string;
  note: string;
  /** Why it cannot run them here, once known: its radio is off, and the dialog says it. */
  problem?: string;
  presence: Map<string, Presence>;
  /** Its list has answered: until then a quant there would look missing (and be fetched again). */
  known: boolean;
  /**
   * Starts fetching the quants `labels`, telling `started` each job's id. False when main refused one (its words in
   * `refused`): the rest are not started, and the user decides again.
   */
  fetch(labels: readonly string[], started: (job: string) => void): Promise<boolean> | boolean;
  cancel(job: string): void;
  refused?: string;
  /** A fetch is being asked of main. */
  starting: boolean;
}
