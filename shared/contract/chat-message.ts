import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { replyContextSchema } from './documents';

/** A conversation's or a message's id. */
export const idSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^[a-z]_[a-z0-9]+$/, 'not a valid id');

export const toolCallSchema = z.object({
  id: z.string().max(128).optional(),
  name: z.string().max(128),
  arguments: z.record(z.string(), z.unknown()),
  /** Arguments the model sent that are not a JSON object, as sent (the call is answered with an error). */
  rawArguments: z.string().max(100_000).optional(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

/**
 * The speed of a reply, shown under it and kept with it. `source` says where the figures come from: the server's
 * own (Ollama's eval counts and durations, llama.cpp's `timings`, OpenAI `usage`) or measured in main from the
 * stream's timing.
 */
export const chatFiguresSchema = z.object({
  promptTokens: z.number().optional(),
  evalTokens: z.number().optional(),
  /** Generation speed. */
  tokensPerSecond: z.number().optional(),
  /** Prompt processing speed. */
  promptTokensPerSecond: z.number().optional(),
  /** Time to first token (text or thinking), from the request. */
  ttftMs: z.number().optional(),
  loadMs: z.number().optional(),
  totalMs: z.number().optional(),
  doneReason: z.string().optional(),
  source: z.enum(['server', 'measured']).optional(),
});
export type ChatFigures = z.infer<typeof chatFiguresSchema>;

const toolStateSchema = z.enum(['approval', 'running']);
/** `auto`: allowed "always" earlier in this conversation; `deny`: the user declined it. */
export const toolDecisionSchema = z.enum(['once', 'always', 'auto', 'deny']);
export type ToolDecision = z.infer<typeof toolDecisionSchema>;

/** `stopped`: the user stopped it; `interrupted`: the app or machine stopped while it streamed. */
const messageStatusSchema = z.enum(['complete', 'streaming', 'stopped', 'interrupted', 'error']);

export const chatMessageSchema = z.object({
  id: idSchema,
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string().max(10_000_000),
  thinking: z.string().max(10_000_000).optional(),
  /** Base64 images (no data: prefix) for vision models. */
  images: z.array(z.string().max(20_000_000)).max(8).optional(),
  toolCalls: z.array(toolCallSchema).optional(),
  /** Tool results: which tool answered. */
  toolName: z.string().max(128).optional(),
  toolCallId: z.string().max(128).optional(),
  /** Tool results: the source that ran it (WEB_TOOLS or an MCP server) and the arguments it ran with. */
  toolSource: z.string().max(80).optional(),
  toolArguments: z.record(z.string(), z.unknown()).optional(),
  /** Tool results while streaming: waiting for the user's approval, or running. */
  toolState: toolStateSchema.optional(),
  /** Tool results: how the call was allowed. */
  toolDecision: toolDecisionSchema.optional(),
  /** Tool results: how long the tool took. */
  durationMs: z.number().min(0).optional(),
  /** Something the user should know about this reply (a tool server that did not start, the tool-round bound). */
  notice: z.string().max(2_000).optional(),
  status: messageStatusSchema,
  error: appErrorSchema.optional(),
  figures: chatFiguresSchema.optional(),
  /** Replies that used documents: how they went (whole or retrieved) and the numbered passages given. */
  context: replyContextSchema.optional(),
  model: z.string().max(350).optional(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;
