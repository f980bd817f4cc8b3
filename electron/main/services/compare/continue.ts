import type { ChatMessage } from '@shared/contract/chat-message';
import { conversationMetaSchema, type ConversationMeta } from '@shared/contract/chat-conversation';
import type { CompareRun } from '@shared/contract/compare';
import { chatTitle } from '@shared/chat-title';
import { AppError } from '@shared/errors';
import { insertLinear, newId } from '../chat/storage/rows';
import type { ChatStore } from '../chat/storage/store';
import { paneParams } from './labels';

/**
 * "Continue in chat": one pane's answer becomes a normal conversation on that pane's engine, model,
 * provider/endpoint, system prompt and parameters (the set's with the pane's over them), holding the prompt and
 * the answer with its figures. The run is the stored one (panes named); the caller has checked the vote.
 */
export function continueAsChat(chat: ChatStore, run: CompareRun, slot: number, index: number): ConversationMeta {
  const s = run.slots[slot];
  if (!s?.pane) throw new AppError('invalid_input', 'This comparison has no such pane.');
  const answer = s.answers[index];
  if (!answer)
    throw new AppError(
      'invalid_input',
      `This pane has ${s.answers.length} answer(s): there is no answer ${index + 1}.`,
    );
  if (answer.status !== 'complete' && !answer.content.trim())
    throw new AppError(
      'invalid_input',
      answer.status === 'stopped'
        ? 'This answer was stopped before it wrote anything: there is nothing to continue.'
        : 'This answer failed before it wrote anything: there is nothing to continue. Run the comparison again.',
    );
  const { pane } = s;
  const now = new Date().toISOString();
  const meta = conversationMetaSchema.parse({
    id: newId('c'),
    title: chatTitle(run.prompt),
    backend: pane.backend,
    model: pane.model,
    provider: pane.provider,
    ...(pane.endpoint ? { endpoint: pane.endpoint } : {}),
    system: run.system,
    params: paneParams(run, pane),
    pinned: false,
    createdAt: now,
    updatedAt: now,
    messageCount: 2,
  });
  // The load before the first answer is that answer's load time (the runner keeps it apart from the first token).
  const loadMs = index === 0 ? s.loadMs : undefined;
  const figures =
    loadMs !== undefined && answer.figures?.loadMs === undefined ? { ...answer.figures, loadMs } : answer.figures;
  const messages: ChatMessage[] = [
    { id: newId('m'), role: 'user', content: run.prompt, status: 'complete', createdAt: run.createdAt },
    {
      id: newId('m'),
      role: 'assistant',
      content: answer.content,
      ...(answer.thinking ? { thinking: answer.thinking } : {}),
      status: answer.status,
      ...(answer.error ? { error: answer.error } : {}),
      ...(figures ? { figures } : {}),
      model: pane.model,
      createdAt: now,
    },
  ];
  chat.write(() => insertLinear(chat.db, meta, messages));
  return meta;
}
