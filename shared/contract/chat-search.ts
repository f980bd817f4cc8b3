import { z } from 'zod';
import { conversationMetaSchema } from './chat-conversation';

/** A piece of a search excerpt; `hit` marks the words that matched. */
export const excerptPartSchema = z.object({ text: z.string(), hit: z.boolean().optional() });
export type ExcerptPart = z.infer<typeof excerptPartSchema>;

export const chatSearchResultSchema = z.object({
  meta: conversationMetaSchema,
  /** The title with its matched words, when the title matched. */
  title: z.array(excerptPartSchema).optional(),
  /** Up to three matching messages, most recent first. */
  hits: z.array(
    z.object({
      messageId: z.string(),
      role: z.enum(['user', 'assistant', 'tool']),
      excerpt: z.array(excerptPartSchema),
    }),
  ),
});
export type ChatSearchResult = z.infer<typeof chatSearchResultSchema>;
