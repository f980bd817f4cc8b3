import type { z } from 'zod';
import { conversationArchiveSchema, conversationExportSchema, type ConversationExport } from '@shared/contract/chat';
import { AppError } from '@shared/errors';

function refuse(error: z.ZodError, what: string): never {
  const issue = error.issues[0];
  const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new AppError('invalid_input', `This is not ${what}: ${issue.message}${where}.`, {
    details: { issues: error.issues.slice(0, 10).map((i) => ({ path: i.path.map(String), message: i.message })) },
  });
}

/**
 * The conversations in an imported file, validated as a whole before anything is written: one conversation
 * (`hubdesk.conversation`) or an "Export all" archive (`hubdesk.conversations`).
 */
export function parseImportFile(text: string): ConversationExport[] {
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
  for (const [n, c] of list.entries()) {
    const ids = new Set<string>();
    for (const m of c.messages) {
      const where = list.length > 1 ? ` (conversation ${n + 1}, “${c.meta.title}”)` : '';
      if (ids.has(m.id)) throw new AppError('invalid_input', `This export repeats message id ${m.id}${where}.`);
      ids.add(m.id);
    }
  }
  return list;
}
