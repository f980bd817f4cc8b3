import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import {
  conversationArchiveSchema,
  conversationExportSchema,
  type ConversationExport,
  type TreeMessage,
} from '@shared/contract/chat-export';
import { AppError } from '@shared/errors';

/** A conversation of an imported file as it is written: its whole tree, the message shown last, and no trust. */
export interface ImportedConversation {
  meta: ConversationMeta;
  /** Every message, a parent before its replies. */
  messages: TreeMessage[];
  leafId: string | null;
  /** The file's conversation id and messages, hashed: a second import of the same file is recognised by it. */
  fingerprint: string;
}

function refuse(error: z.ZodError, what: string): never {
  const issue = error.issues[0];
  const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new AppError('invalid_input', `This is not ${what}: ${issue.message}${where}.`, {
    details: { issues: error.issues.slice(0, 10).map((i) => ({ path: i.path.map(String), message: i.message })) },
  });
}

/**
 * The conversations in an imported file, validated as a whole before anything is written: one conversation
 * (`hubdesk.conversation`) or an "Export all" archive (`hubdesk.conversations`), of this version or an earlier one.
 */
export function parseImportFile(text: string): ImportedConversation[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new AppError('invalid_input', `This file is not JSON: ${(e as Error).message}`);
  }
  let list: ConversationExport[];
  if ((raw as { format?: unknown } | null)?.format === 'hubdesk.conversations') {
    const parsed = conversationArchiveSchema.safeParse(raw);
    if (!parsed.success) refuse(parsed.error, 'a complete HubDesk conversations archive');
    list = parsed.data.conversations;
    if (!list.length) throw new AppError('invalid_input', 'This archive holds no conversations.');
  } else {
    const parsed = conversationExportSchema.safeParse(raw);
    if (!parsed.success) refuse(parsed.error, 'a HubDesk conversation export');
    list = [parsed.data];
  }
  return list.map((c, n) => imported(c, list.length > 1 ? ` (conversation ${n + 1}, “${c.meta.title}”)` : ''));
}

function imported(exp: ConversationExport, where: string): ImportedConversation {
  // Version 1 holds the path that was shown: each message follows the one before it.
  const messages =
    exp.version === 2
      ? exp.messages
      : exp.messages.map((m, i) => ({ ...m, parentId: exp.messages[i - 1]?.id ?? null }));
  const leafId =
    exp.version === 2 ? (exp.leafId ?? exp.messages.at(-1)?.id ?? null) : (exp.messages.at(-1)?.id ?? null);
  const parents = new Map<string, string | null>();
  for (const m of messages) {
    if (parents.has(m.id)) throw new AppError('invalid_input', `This export repeats message id ${m.id}${where}.`);
    if (m.parentId !== null && !parents.has(m.parentId))
      throw new AppError(
        'invalid_input',
        `This export's message ${m.id} follows ${m.parentId}, which does not come before it${where}.`,
      );
    parents.set(m.id, m.parentId);
  }
  if (leafId !== null && !parents.has(leafId))
    throw new AppError('invalid_input', `This export shows message ${leafId}, which it does not hold${where}.`);
  let shown = 0;
  for (let at = leafId; at !== null; at = parents.get(at) ?? null) shown++;
  return {
    meta: { ...withoutTrust(exp.meta), messageCount: shown },
    messages: messages.map(settled),
    leafId,
    fingerprint: fingerprintOf(exp.meta.id, messages),
  };
}

/**
 * An import brings no trust: nothing is allowed "always", and the tool sources the file had on come in off,
 * listed in `importedToolSources` so the user can turn them on.
 */
function withoutTrust(meta: ConversationMeta): ConversationMeta {
  const { importedToolSources = [], importFingerprint: _, ...rest } = meta;
  const asked = [...new Set([...meta.toolSources, ...importedToolSources])];
  return { ...rest, toolSources: [], toolsAllowed: [], ...(asked.length ? { importedToolSources: asked } : {}) };
}

/** A reply that was streaming when the file was written is interrupted here; no tool call waits or runs. */
function settled(m: TreeMessage): TreeMessage {
  const { toolState: _, ...rest } = m;
  return m.status === 'streaming' ? { ...rest, status: 'interrupted' } : rest;
}

function fingerprintOf(conversationId: string, messages: TreeMessage[]): string {
  const hash = createHash('sha256').update(conversationId);
  for (const m of messages) hash.update(JSON.stringify([m.id, m.parentId, m.role, m.content, m.createdAt]));
  return hash.digest('base64url');
}
