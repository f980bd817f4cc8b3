import { z } from 'zod';
import { IMPORT_PART_CHARS, MAX_IMPORT_CHARS } from '../limits';
import { call, stream } from './define';
import { endpointIdSchema } from './endpoints';
import { baseIdSchema } from './documents';
import { snippetSchema } from './snippets';
import { chatMessageSchema, idSchema } from './chat-message';
import {
  chatBackendSchema,
  chatParamsSchema,
  conversationMetaSchema,
  conversationViewSchema,
  pathWindowSchema,
  toolSourceSchema,
  toolSourcesSchema,
  toolsAllowedSchema,
} from './chat-conversation';
import { chatEventSchema } from './chat-events';
import { chatSearchResultSchema } from './chat-search';

// The chat's calls. The shapes they carry are in the files beside this one: chat-message (messages, tool calls,
// figures), chat-conversation (a conversation's settings, tool sources and view), chat-export (exported files),
// chat-events (what a reply stream reports) and chat-search (search results).

/** A file being sent in parts (`chat.importPart`). */
const uploadIdSchema = z
  .string()
  .max(64)
  .regex(/^u_[a-z0-9]+$/, 'not a valid upload id');

const exportFile = z.object({ filename: z.string(), mime: z.string(), text: z.string() });

const convId = z.object({ id: idSchema }).strict();
const metaPatch = z
  .object({
    title: z.string().trim().min(1).max(200),
    backend: chatBackendSchema,
    model: z.string().trim().max(350),
    provider: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9-]+$/, 'a provider id such as auto or together'),
    endpoint: endpointIdSchema,
    system: z.string().max(100_000),
    params: chatParamsSchema,
    toolSources: toolSourcesSchema,
    toolsAllowed: toolsAllowedSchema,
    bases: z.array(baseIdSchema).max(32),
    pinned: z.boolean(),
  })
  .partial()
  .strict();

const replyResult = z.object({ messages: z.array(chatMessageSchema) });

/**
 * How much of the streaming reply the page had painted when the person pressed Stop (JavaScript string lengths);
 * no `messageId`: none of it was on screen yet.
 */
const shownSchema = z
  .object({
    messageId: idSchema.optional(),
    content: z.number().int().min(0).max(10_000_000),
    thinking: z.number().int().min(0).max(10_000_000),
  })
  .strict();
export type ShownText = z.infer<typeof shownSchema>;

/**
 * Where a page of the conversation list ends: the last conversation's place in the list's order (pinned first, then
 * the most recently updated, then by id). A conversation updated meanwhile moves above it, so reading on neither
 * repeats it nor skips another.
 */
const listCursorSchema = z.object({ pinned: z.boolean(), updatedAt: z.string().max(40), id: idSchema }).strict();
export type ChatListCursor = z.infer<typeof listCursorSchema>;

export const chatCalls = {
  /** A page of conversations (100 unless `limit` says), in the sidebar's order; `nextCursor` asks for the next one. */
  'chat.list': call({
    input: z
      .object({ cursor: listCursorSchema.optional(), limit: z.number().int().min(1).max(500).optional() })
      .strict(),
    output: z.object({ conversations: z.array(conversationMetaSchema), nextCursor: listCursorSchema.optional() }),
  }),
  /**
   * Searches titles and message text (every word as a prefix, "quoted phrases" as phrases); conversations with
   * the most recent matches first, with highlighted excerpts.
   */
  'chat.search': call({
    input: z.object({ query: z.string().max(200) }).strict(),
    output: z.object({ results: z.array(chatSearchResultSchema) }),
  }),
  'chat.create': call({ input: metaPatch, output: conversationMetaSchema }),
  /**
   * Opens a conversation: its last messages (a window; `hasOlder` says if there is more). With `around` (a
   * message on the selected path, such as a search hit), a window centred on that message.
   */
  'chat.get': call({
    input: z.object({ id: idSchema, around: idSchema.optional() }).strict(),
    output: conversationViewSchema,
  }),
  /** Earlier messages of the selected path: up to `limit` just before the message `before`, oldest first. */
  'chat.older': call({
    input: z.object({ id: idSchema, before: idSchema, limit: z.number().int().min(1).max(500).optional() }).strict(),
    output: pathWindowSchema,
  }),
  /** Later messages of the selected path: up to `limit` just after the message `after`, oldest first. */
  'chat.newer': call({
    input: z.object({ id: idSchema, after: idSchema, limit: z.number().int().min(1).max(500).optional() }).strict(),
    output: pathWindowSchema,
  }),
  /** Shows another version of a message (regenerated or edited); the conversation continues from it. */
  'chat.selectVersion': call({
    input: z.object({ id: idSchema, messageId: idSchema }).strict(),
    output: conversationViewSchema,
  }),
  'chat.update': call({ input: z.object({ id: idSchema, patch: metaPatch }).strict(), output: conversationMetaSchema }),
  /** Moves the conversation aside; `chat.restore` undoes it until the app restarts. */
  'chat.delete': call({ input: convId, output: z.object({ deleted: z.literal(true) }) }),
  'chat.restore': call({ input: convId, output: conversationMetaSchema }),
  /**
   * Stops the reply being written in this conversation; it keeps what `shown` says the page showed (all that main
   * has without it). `stopped: false` when nothing was running. The reply's stream then ends as `aborted`.
   */
  'chat.stop': call({
    input: z.object({ id: idSchema, shown: shownSchema.optional() }).strict(),
    output: z.object({ stopped: z.boolean() }),
  }),
  /**
   * "Save" of an edited question: a new version of it with no reply yet, where the conversation now ends; the
   * earlier version keeps its replies.
   */
  'chat.edit': call({
    input: z.object({ id: idSchema, messageId: idSchema, content: z.string().min(1).max(1_000_000) }).strict(),
    output: chatMessageSchema,
  }),
  /** JSON: the whole tree, every version (see conversationExportSchema). Markdown: the messages shown. */
  'chat.export': call({
    input: z.object({ id: idSchema, format: z.enum(['markdown', 'json']) }).strict(),
    output: exportFile,
  }),
  /** Every conversation, each with every version, in one JSON file. */
  'chat.exportAll': call({ input: z.object({}).strict(), output: exportFile }),
  /**
   * One conversation's export, validated as a whole: a bad file is refused with the reason and changes nothing.
   * It brings no trust: tool sources come in off and nothing is allowed "always". A conversation already here
   * (the one exported, or an earlier import of it) is refused with `conflict` (`details.duplicates`) unless
   * `asCopy`.
   */
  'chat.import': call({
    input: z.object({ text: z.string().min(1).max(MAX_IMPORT_CHARS), asCopy: z.boolean().optional() }).strict(),
    output: conversationMetaSchema,
  }),
  /**
   * Part of a file too long for one call (see IMPORT_PART_CHARS), kept by main until `chat.importFile` with the
   * `upload` this answers; pass it back to add the next part.
   */
  'chat.importPart': call({
    input: z.object({ upload: uploadIdSchema.optional(), text: z.string().min(1).max(IMPORT_PART_CHARS) }).strict(),
    output: z.object({ upload: uploadIdSchema }),
  }),
  /**
   * A file the user picked (its `text`, or the parts sent as `upload`): one conversation or an "Export all"
   * archive. Validated as a whole and written in one transaction: a foreign or damaged file is refused with the
   * reason and changes nothing. Trust and conversations already here as with `chat.import`.
   */
  'chat.importFile': call({
    input: z
      .object({
        text: z.string().min(1).max(MAX_IMPORT_CHARS).optional(),
        upload: uploadIdSchema.optional(),
        asCopy: z.boolean().optional(),
      })
      .strict()
      .refine((v) => (v.text === undefined) !== (v.upload === undefined), 'Send either the text or an upload.'),
    output: z.object({ conversations: z.array(conversationMetaSchema) }),
  }),
  /**
   * The Ollama models a conversation can use: those that complete text (embedding-only ones are left out), each
   * saying whether it is loaded now (`ollama.ps`), so a new chat can start on one that answers at once.
   */
  'chat.models': call({
    input: z.object({}).strict(),
    output: z.object({
      models: z.array(z.object({ name: z.string(), capabilities: z.array(z.string()), running: z.boolean() })),
    }),
  }),
  /** What the conversation's model can do (Ollama `show` capabilities: vision, tools, thinking…). */
  'chat.capabilities': call({
    input: convId,
    output: z.object({ capabilities: z.array(z.string()) }),
  }),
  /** "Open as code": the conversation as runnable snippets (python / js / curl) from the snippet engine. */
  'chat.code': call({
    input: convId,
    output: z.object({ snippets: z.array(snippetSchema), notice: z.string().optional() }),
  }),
  /**
   * Where tools come from: the built-in web tools and each MCP server of mcp.json, with its state and tools
   * (stopped servers are started, without waiting, so their tools can be listed). A conversation turns sources
   * on with `toolSources`.
   */
  'chat.toolSources': call({ input: z.object({}).strict(), output: z.object({ sources: z.array(toolSourceSchema) }) }),
  /**
   * The user's answer to a tool call waiting for approval (`once`, `always` for this conversation, `deny`), or
   * `cancel` for a call that is running: it ends with an error result the model gets back.
   */
  'chat.toolDecision': call({
    input: z
      .object({ id: idSchema, messageId: idSchema, decision: z.enum(['once', 'always', 'deny', 'cancel']) })
      .strict(),
    output: z.object({ meta: conversationMetaSchema }),
  }),
  /** Appends the user's message and streams the reply. */
  'chat.send': stream({
    input: z
      .object({
        id: idSchema,
        content: z.string().max(1_000_000),
        images: z.array(z.string().max(20_000_000)).max(8).optional(),
      })
      .strict(),
    event: chatEventSchema,
    result: replyResult,
  }),
  /**
   * Answers the last user message again, or (with `edit`) a new version of that user message; the earlier reply
   * or question stays as a version. The result's messages start with the edited question, if any.
   */
  'chat.regenerate': stream({
    input: z
      .object({
        id: idSchema,
        edit: z
          .object({ messageId: idSchema, content: z.string().min(1).max(1_000_000) })
          .strict()
          .optional(),
      })
      .strict(),
    event: chatEventSchema,
    result: replyResult,
  }),
};
