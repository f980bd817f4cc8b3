import { modelOnSwitch } from '@shared/chat-model';
import type { ChatBackend } from '@shared/contract/chat-conversation';
import type { EngineUi } from './types';

/**
 * The engine choice of an engine that is a single entry (all but the endpoints, one entry each): keyed by its
 * backend; the model goes along only if that engine can use it, else it is chosen there.
 */
export function oneChoice(backend: ChatBackend, label: string): Pick<EngineUi, 'choices' | 'choiceKey'> {
  const choice = { key: backend, label, patch: (model: string) => ({ backend, model: modelOnSwitch(backend, model) }) };
  return { choices: () => [choice], choiceKey: () => backend };
}
