import { z } from 'zod';
import { call, stream } from './define';

/**
 * MCP servers: `mcp.json` in the data dir, in the `mcpServers` notation Claude Desktop, Cursor and LM Studio use.
 * Values of `env` and `headers` are secrets: the renderer only ever sees them masked.
 */

/** A server's name, as the key of `mcpServers`. */
export const mcpServerNameSchema = z
  .string()
  .trim()
  .min(1, 'a server name')
  .max(64, 'at most 64 characters')
  .regex(/^[^\p{Cc}]+$/u, 'no control characters');

const mcpTransportSchema = z.enum(['stdio', 'http', 'sse']);
export type McpTransport = z.infer<typeof mcpTransportSchema>;

/** A problem in the config text, pointing at the place the editor should mark (1-based line and column). */
const mcpConfigErrorSchema = z.object({
  message: z.string(),
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  /** The JSON path of the offending value, e.g. ['mcpServers', 'files', 'command']. */
  path: z.array(z.string()),
});
export type McpConfigError = z.infer<typeof mcpConfigErrorSchema>;

/** One configured server, as the renderer may see it: secret values never, only which keys are set. */
const mcpServerConfigViewSchema = z.object({
  name: z.string(),
  transport: mcpTransportSchema,
  disabled: z.boolean(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  url: z.string().optional(),
  envKeys: z.array(z.string()),
  headerKeys: z.array(z.string()),
});
export type McpServerConfigView = z.infer<typeof mcpServerConfigViewSchema>;

const mcpConfigViewSchema = z.object({
  /**
   * The config text with every secret masked ("•••• abcd"); saving a mask unchanged keeps the stored value, as long
   * as the server's URL origin (headers) or command, args and cwd (env) are those it was typed for.
   */
  text: z.string(),
  servers: z.array(mcpServerConfigViewSchema),
  errors: z.array(mcpConfigErrorSchema),
  /** Whether the text shown was written (false when a save was refused for errors). */
  saved: z.boolean(),
  /** Whether secrets survive a restart (encrypted store) or last for this session only. */
  persistentSecrets: z.boolean(),
  /** Bumped on every change, from the app or on disk: the Tools screen reloads when it moves. */
  revision: z.number().int(),
});
export type McpConfigView = z.infer<typeof mcpConfigViewSchema>;

const mcpToolSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type McpTool = z.infer<typeof mcpToolSchema>;

const mcpServerStateSchema = z.enum(['stopped', 'starting', 'ready', 'error', 'restarting', 'disabled']);

const mcpServerStatusSchema = z.object({
  name: z.string(),
  transport: mcpTransportSchema,
  state: mcpServerStateSchema,
  /** The last error, in words a person can act on. */
  message: z.string().optional(),
  /** While restarting: when the next attempt starts, in ms from now. */
  retryInMs: z.number().optional(),
  /** The server's own name and version from its initialize answer. */
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  tools: z.array(mcpToolSchema),
});
export type McpServerStatus = z.infer<typeof mcpServerStatusSchema>;

const mcpServersViewSchema = z.object({ revision: z.number().int(), servers: z.array(mcpServerStatusSchema) });
export type McpServersView = z.infer<typeof mcpServersViewSchema>;

/** One part of a tool result; large parts are cut, with `truncated` set. */
const mcpContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string() }),
  z.object({ type: z.literal('audio'), mimeType: z.string(), data: z.string() }),
  z.object({ type: z.literal('resource'), uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
  z.object({ type: z.literal('other'), text: z.string() }),
]);
export type McpContent = z.infer<typeof mcpContentSchema>;

const mcpToolResultSchema = z.object({
  server: z.string(),
  tool: z.string(),
  content: z.array(mcpContentSchema),
  /** The tool itself reported an error (the model gets it back as the tool result). */
  isError: z.boolean(),
  /** Parts or bytes were dropped to keep the result bounded. */
  truncated: z.boolean(),
  durationMs: z.number(),
});
export type McpToolResult = z.infer<typeof mcpToolResultSchema>;

const nameInput = z.object({ name: mcpServerNameSchema }).strict();
const configText = z.string().max(1_000_000, 'at most 1 MB of config');

export const mcpCalls = {
  'mcp.config.get': call({ input: z.object({}).strict(), output: mcpConfigViewSchema }),
  /** Validates and writes mcp.json; with errors nothing is written and the errors come back. */
  'mcp.config.save': call({ input: z.object({ text: configText }).strict(), output: mcpConfigViewSchema }),
  /** Merges the servers of an existing file (Claude Desktop, Cursor, LM Studio, VS Code) into mcp.json. */
  'mcp.config.import': call({ input: z.object({ text: configText }).strict(), output: mcpConfigViewSchema }),
  /** Every configured server with its status and tools; `connect` starts the stopped ones (without waiting). */
  'mcp.servers': call({ input: z.object({ connect: z.boolean().optional() }).strict(), output: mcpServersViewSchema }),
  /** Starts a server (if not running) and waits until it is ready or failed. */
  'mcp.start': call({ input: nameInput, output: mcpServerStatusSchema }),
  'mcp.restart': call({ input: nameInput, output: mcpServerStatusSchema }),
  'mcp.stop': call({ input: nameInput, output: mcpServerStatusSchema }),
  /** The last 64 KB the server wrote to stderr, secrets masked. */
  'mcp.log': call({ input: nameInput, output: z.object({ text: z.string(), truncated: z.boolean() }) }),
  /** Runs one tool; cancel the stream to abort the call. */
  'mcp.callTool': stream({
    input: z
      .object({
        server: mcpServerNameSchema,
        tool: z.string().min(1).max(128),
        arguments: z.record(z.string(), z.unknown()),
        timeoutMs: z.number().int().min(100).max(600_000).optional(),
      })
      .strict(),
    event: z.object({ type: z.literal('started'), server: z.string(), tool: z.string() }),
    result: mcpToolResultSchema,
  }),
};
