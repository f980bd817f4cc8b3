import { z } from 'zod';
import { chatMessageSchema } from './chat-message';

/** What a reply stream reports; the renderer applies them in order. */
export const chatEventSchema = z.discriminatedUnion('type', [
  /** A message was written (the user's, a tool result, or a reply at its start or end). */
  z.object({ type: z.literal('message'), message: chatMessageSchema }),
  /** Text added to a streaming reply. */
  z.object({
    type: z.literal('delta'),
    id: z.string(),
    content: z.string().optional(),
    thinking: z.string().optional(),
  }),
  /** Messages from this one on were removed (regenerate, edit and regenerate). */
  z.object({ type: z.literal('cut'), from: z.string() }),
  /** A provider request is being retried before its first token. */
  z.object({ type: z.literal('retry'), attempt: z.number(), waitMs: z.number(), reason: z.string() }),
  /** The model is answering as many requests as it can at once: this one waits, `ahead` in front of it. */
  z.object({ type: z.literal('waiting'), ahead: z.number().int() }),
]);
export type ChatEvent = z.infer<typeof chatEventSchema>;
