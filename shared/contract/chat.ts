import { z } from 'zod';
import { IMPORT_PART_CHARS, MAX_IMPORT_CHARS } from '../limits';
import { appErrorSchema } from './error-schema';
import { call, stream } from './define';
import { endpointIdSchema } from './endpoints';
import { baseIdSchema, replyContextSchema } from './documents';
import { snippetSchema } from './snippets';

/**
 * The engine a conversation's replies come from: a local Ollama server, a hosted model through the HF router
 * (`provider`), or an OpenAI-compatible server the user added (`endpoint`: llama.cpp, LM Studio, vLLM…).
 */
/** Where replies come from: Ollama, the HF router, one of the user's endpoints, or the built-in llama.cpp engine. */
export const chatBackendSchema = z.enum(['ollama', 'provider', 'endpoint', 'local']);
export type ChatBackend = z.infer<typeof chatBackendSchema>;

/** Sampling parameters; each is optional and only sent when set. */
export const chatParamsSchema = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    /** max_tokens for the router, num_predict for Ollama. */
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
    num_ctx: z.number().int().min(1).max(10_000_000).optional(),
    seed: z.number().int().optional(),
    stop: z.array(z.string().min(1).max(200)).max(16).optional(),
    /** Thinking models: reason first (shown separately) or answer directly. */
    think: z.boolean().optional(),
  })
  .strict();
export type ChatParams = z.infer<typeof chatParamsSchema>;

const idSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^[a-z]_[a-z0-9]+$/, 'not a valid id');

/** The built-in tool source: ollama.com's web_search and web_fetch. MCP servers are the other sources, by name. */
export const WEB_TOOLS = 'hubdesk:web';
/** How an allowed tool is named in `toolsAllowed`. */
export const toolKey = (source: string, tool: string) => `${source}/${tool}`;

const toolSourcesSchema = z.array(z.string().trim().min(1).max(80)).max(64);
const toolsAllowedSchema = z.array(z.string().min(3).max(300)).max(512);

/** Conversations written before tool sources had a `webSearch` switch: it becomes the web source. */
const fromWebSearch = (v: unknown) => {
  if (!v || typeof v !== 'object' || !('webSearch' in v)) return v;
  const { webSearch, ...rest } = v as { webSearch?: unknown; toolSources?: unknown };
  return rest.toolSources === undefined && webSearch === true ? { ...rest, toolSources: [WEB_TOOLS] } : rest;
};

export const conversationMetaSchema = z.preprocess(
  fromWebSearch,
  z.object({
    id: idSchema,
    title: z.string().max(200),
    backend: chatBackendSchema,
    model: z.string().max(350),
    /** Router only: `auto` or a provider id from the model's mapping. */
    provider: z.string().max(64),
    /** `endpoint` only: which of the user's endpoints (Settings → Endpoints). */
    endpoint: endpointIdSchema.optional(),
    system: z.string().max(100_000),
    params: chatParamsSchema,
    /** The tool sources offered to the model: WEB_TOOLS and MCP server names (only to models that can call tools). */
    toolSources: toolSourcesSchema.default([]),
    /** Tools the user allowed "always" in this conversation, as `toolKey(source, tool)`: they run without asking. */
    toolsAllowed: toolsAllowedSchema.default([]),
    /**
     * Imported conversations only: the tool sources the file had on, which came in off (an import brings no
     * trust). The picker shows them unchecked with a note; turning one on takes it off this list.
     */
    importedToolSources: toolSourcesSchema.optional(),
    /** Imported conversations only: which file's conversation this is, so a second import of it is recognised. */
    importFingerprint: z.string().max(128).optional(),
    /** Named knowledge bases this conversation's replies retrieve from (its own attachments are always used). */
    bases: z.array(baseIdSchema).max(32).optional(),
    pinned: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    messageCount: z.number().int().min(0),
  }),
);
export type ConversationMeta = z.infer<typeof conversationMetaSchema>;

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

/** A file being sent in parts (`chat.importPart`). */
const uploadIdSchema = z
  .string()
  .max(64)
  .regex(/^u_[a-z0-9]+$/, 'not a valid upload id');

const exportFile = z.object({ filename: z.string(), mime: z.string(), text: z.string() });

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

/** A stretch of the selected path of a conversation's message tree, oldest first. */
const pathWindowSchema = z.object({
  messages: z.array(chatMessageSchema),
  /** Message id → the ids of its versions (siblings, oldest first); only messages with more than one. */
  versions: z.record(z.string(), z.array(z.string())),
  /** Older messages precede the first one: `chat.older` with `before` = its id pages them in. */
  hasOlder: z.boolean(),
  /** Newer messages follow the last one (a window opened around a message): `chat.newer` with `after` = its id. */
  hasNewer: z.boolean(),
});

/** A conversation as shown: the end of its selected path (a window, not all of a long one) and its versions. */
const conversationViewSchema = pathWindowSchema.extend({ meta: conversationMetaSchema });
export type ConversationView = z.infer<typeof conversationViewSchema>;

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

/** One source of tools as the conversation settings show it. */
export const toolSourceSchema = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['builtin', 'mcp']),
  /** `ready` sources offer their tools; others are started (MCP) or explained (`message`) when a reply needs them. */
  state: z.enum(['ready', 'stopped', 'starting', 'restarting', 'error', 'disabled']),
  message: z.string().optional(),
  tools: z.array(z.object({ name: z.string(), description: z.string().optional() })),
});
export type ToolSource = z.infer<typeof toolSourceSchema>;

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
