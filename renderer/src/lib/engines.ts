import { routerKey, routerKeyProblem } from '@shared/chat-model';
import type { ChatBackend, ConversationMeta } from '@shared/contract/chat-conversation';
import type { Endpoint } from '@shared/contract/endpoints';
import type { SettingsView } from '@shared/contract/settings';

/**
 * What the renderer's lower rungs (lib, store, hooks) know of each chat engine, as plain data and pure functions.
 * The engines' parts for the screens (names, pickers, settings) are in `features/engines/`, one file or folder per
 * engine, which read this table too. TypeScript wants an entry for every engine the contract names.
 */

/** Why a conversation cannot be answered as it stands; `inSettings`: the fix is on the Settings page. */
export interface SendBlock {
  message: string;
  inSettings: boolean;
}

/** What an engine may need besides a model: the user's endpoints (undefined: not read yet) and the settings. */
export interface EngineNeeds {
  endpoints: readonly Endpoint[] | undefined;
  view: SettingsView | undefined;
}

/** Compare quants' words for fetching a quant: Ollama pulls models, the built-in engine downloads files. */
export interface QuantWords {
  /** The confirm button's verb: "Pull 2 models and compare". */
  verb: string;
  /** One quant there, in the singular ("model", "file"). */
  noun: string;
  /** A quant already there: "pulled", "on disk". */
  here: string;
  /** While one is fetched: "Pulling" (the button adds "…", each progress bar the quant's label). */
  busy: string;
  /** The button that stops them all. */
  cancel: string;
}

interface EngineFacts {
  /** It runs on one of the user's endpoints: the conversation names it (`endpoint`), and the list is read for it. */
  onEndpoint: boolean;
  /**
   * Why a conversation on it cannot be answered as things stand, its model aside (shared/chat-model.ts checks that):
   * main refuses a reply with the same words, and a new chat does not start from such a conversation.
   */
  blocked?(meta: Pick<ConversationMeta, 'endpoint'>, needs: EngineNeeds): SendBlock | undefined;
  /**
   * A new-chat link (`#/chat/new/<backend>/<model>`, see newChatHref) can start a conversation on it: `segment`, its
   * model is one segment of the address; `path`, the rest of it (a local id holds slashes, and a typed
   * `#/chat/new/local/org/name/file.gguf` works too). An endpoint needs its id as well: no link.
   */
  newChat?: 'segment' | 'path';
  /** Compare quants can fetch a GGUF repo's quants for it (and run them there), in these words. */
  quants?: QuantWords;
}

const facts = {
  ollama: {
    onEndpoint: false,
    newChat: 'segment',
    quants: { verb: 'Pull', noun: 'model', here: 'pulled', busy: 'Pulling', cancel: 'Cancel the pulls' },
  },
  local: {
    onEndpoint: false,
    newChat: 'path',
    quants: { verb: 'Download', noun: 'file', here: 'on disk', busy: 'Downloading', cancel: 'Cancel the downloads' },
  },
  provider: {
    onEndpoint: false,
    newChat: 'segment',
    // The router gets the Hugging Face token only where it is set and allowed to go (main refuses otherwise).
    blocked: (_meta, { view }) => {
      const key = routerKey(view);
      return key && key !== 'ready' && view
        ? { message: routerKeyProblem(key, view.values.routerUrl), inSettings: true }
        : undefined;
    },
  },
  endpoint: {
    onEndpoint: true,
    blocked: (meta, { endpoints }) =>
      endpoints && !endpoints.some((e) => e.id === meta.endpoint)
        ? {
            message:
              'The endpoint this conversation used was removed: choose another engine in its Settings, or add the server again under Settings → Endpoints.',
            inSettings: false,
          }
        : undefined,
  },
} as const satisfies Record<ChatBackend, EngineFacts>;

export const engineFacts: Readonly<Record<ChatBackend, EngineFacts>> = facts;

type Facts = typeof facts;

/** The engines a new-chat link can start. */
export type NewChatBackend = { [B in ChatBackend]: Facts[B] extends { newChat: string } ? B : never }[ChatBackend];

/** The engines Compare quants can fetch quants for. */
export type QuantEngine = { [B in ChatBackend]: Facts[B] extends { quants: QuantWords } ? B : never }[ChatBackend];

/** Compare quants' words for an engine. */
export const quantWords = (engine: QuantEngine): QuantWords => facts[engine].quants;

/**
 * The engine and model of a new-chat link, from the address after `#/chat/new/`; undefined when the engine takes no
 * such link or the model is missing.
 */
export function newChatOf(params: readonly string[]): { backend: NewChatBackend; model: string } | undefined {
  const [backend, ...rest] = params;
  if (!backend || !Object.hasOwn(facts, backend)) return undefined;
  const how = engineFacts[backend as ChatBackend].newChat;
  const model = how === 'path' ? rest.join('/') : how === 'segment' ? rest[0] : undefined;
  return model ? { backend: backend as NewChatBackend, model } : undefined;
}
