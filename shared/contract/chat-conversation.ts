import { z } from 'zod';
import { chatMessageSchema, idSchema } from './chat-message';
import { endpointIdSchema } from './endpoints';
import { baseIdSchema } from './documents';

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

/** The built-in tool source: ollama.com's web_search and web_fetch. MCP servers are the other sources, by name. */
export const WEB_TOOLS = 'hubdesk:web';
/** How an allowed tool is named in `toolsAllowed`. */
export const toolKey = (source: string, tool: string) => `${source}/${tool}`;

export const toolSourcesSchema = z.array(z.string().trim().min(1).max(80)).max(64);
export const toolsAllowedSchema = z.array(z.string().min(3).max(300)).max(512);

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

/** A stretch of the selected path of a conversation's message tree, oldest first. */
export const pathWindowSchema = z.object({
  messages: z.array(chatMessageSchema),
  /** Message id → the ids of its versions (siblings, oldest first); only messages with more than one. */
  versions: z.record(z.string(), z.array(z.string())),
  /** Older messages precede the first one: `chat.older` with `before` = its id pages them in. */
  hasOlder: z.boolean(),
  /** Newer messages follow the last one (a window opened around a message): `chat.newer` with `after` = its id. */
  hasNewer: z.boolean(),
});

/** A conversation as shown: the end of its selected path (a window, not all of a long one) and its versions. */
export const conversationViewSchema = pathWindowSchema.extend({ meta: conversationMetaSchema });
export type ConversationView = z.infer<typeof conversationViewSchema>;
