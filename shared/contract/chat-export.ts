import { z } from 'zod';
import { conversationMetaSchema } from './chat-conversation';
import { chatMessageSchema, idSchema } from './chat-message';

/** A message of an exported tree, with the message it follows (`null`: the first message, or a version of it). */
const treeMessageSchema = chatMessageSchema.extend({ parentId: idSchema.nullable() });
export type TreeMessage = z.infer<typeof treeMessageSchema>;

/**
 * A whole conversation, as exported to JSON and imported back. Version 2 holds the whole tree: every version of
 * every message (in the order they were written, a parent before its replies) and the end of the one shown
 * (`leafId`). Version 1 (files of earlier HubDesk versions) holds only the messages that were shown.
 */
const conversationTreeExportSchema = z.object({
  format: z.literal('hubdesk.conversation'),
  version: z.literal(2),
  meta: conversationMetaSchema,
  leafId: idSchema.nullable(),
  messages: z.array(treeMessageSchema),
});
export type ConversationTreeExport = z.infer<typeof conversationTreeExportSchema>;
export const conversationExportSchema = z.discriminatedUnion('version', [
  z.object({
    format: z.literal('hubdesk.conversation'),
    version: z.literal(1),
    meta: conversationMetaSchema,
    messages: z.array(chatMessageSchema),
  }),
  conversationTreeExportSchema,
]);
export type ConversationExport = z.infer<typeof conversationExportSchema>;

/** Every conversation in one file ("Export all"); `chat.importFile` restores them all. Version 1: earlier files. */
export const conversationArchiveSchema = z.object({
  format: z.literal('hubdesk.conversations'),
  version: z.union([z.literal(1), z.literal(2)]),
  exportedAt: z.string(),
  conversations: z.array(conversationExportSchema),
});
export type ConversationArchive = z.infer<typeof conversationArchiveSchema>;
