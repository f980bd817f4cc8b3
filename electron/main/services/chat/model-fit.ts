import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { modelMismatch } from '@shared/chat-model';
import { AppError } from '@shared/errors';
import type { Engines } from '../engines/registry';

/** A model named for a conversation must fit its engine (see modelMismatch). */
export function assertFits(backend: ConversationMeta['backend'], model: string | undefined): void {
  const why = model === undefined ? undefined : modelMismatch(backend, model);
  if (why) throw new AppError('invalid_input', why);
}

/** What keeps a conversation from being answered, said before the question is written or anything is sent. */
export function assertCanReply(engines: Engines, meta: ConversationMeta): void {
  if (!meta.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
  assertFits(meta.backend, meta.model);
  // Said here, before anything is written: an endpoint not chosen or removed, the router without a token…
  engines.kind(meta.backend).assertReady(meta);
}
