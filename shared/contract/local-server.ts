import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { localModelIdSchema } from './local-models';

export const serverStatusSchema = z.object({
  enabled: z.boolean(),
  running: z.boolean(),
  port: z.number().int(),
  /** `http://127.0.0.1:<port>/v1` while running. */
  url: z.string().optional(),
  /**
   * Requests need `Authorization: Bearer <key>`: the server does not start without one. The key is the user's
   * (typed here, or HUBDESK_LOCAL_SERVER_KEY); the page only ever sees its last four characters.
   */
  keySet: z.boolean(),
  last4: z.string().max(4).optional(),
  keySource: z.enum(['none', 'env', 'stored']),
  /** With a key: whether it outlives this run (false: typed or generated where no keychain keeps it, the web mode). */
  keyKept: z.boolean().optional(),
  error: appErrorSchema.optional(),
  /** Listening on every interface (0.0.0.0) rather than 127.0.0.1 only; the key is still needed. */
  lan: z.boolean(),
  /** While running on the network: `http://<this machine's address>:<port>/v1` for each of its IPv4 interfaces. */
  lanUrls: z.array(z.string()).optional(),
  /** Browser origins granted CORS (none by default: pages cannot read the server's answers). */
  corsOrigins: z.array(z.string()),
  /** The request log keeps request bodies (without the key) and reply texts. */
  keepBodies: z.boolean(),
});
export type LocalServerStatus = z.infer<typeof serverStatusSchema>;

/** The kinds of text a setup is: code, a config file, or settings to type into an app (`text`). */
const appSetupLanguages = ['python', 'js', 'sh', 'yaml', 'json', 'text'] as const;

/** "Use from another app": one app's setup for a local model through the local server. */
const appSetupSchema = z.object({
  /** Stable per app (`continue`, `claude-code`…). */
  id: z.string(),
  title: z.string(),
  language: z.enum(appSetupLanguages),
  /** The file name the app reads (`config.yaml`, `settings.json`) or a name for a script: what Save suggests. */
  file: z.string().optional(),
  /** What to do in the app, in order, around `content`. */
  steps: z.array(z.string()).optional(),
  content: z.string(),
  install: z.string().optional(),
  /** A caveat for this model (its context may be too short for the app). */
  note: z.string().optional(),
});
export type AppSetup = z.infer<typeof appSetupSchema>;

export const appSetupsSchema = z.object({
  model: localModelIdSchema,
  /** The model's display name. */
  name: z.string(),
  /** `http://127.0.0.1:<port>/v1`: the server's address, or the one it will have once on. */
  baseUrl: z.string(),
  /** The environment variable every setup reads the key from: setups never hold the key itself. */
  keyEnv: z.string(),
  /** The context length the setups type in, and where it comes from: the loaded model, its load plan, or a guess. */
  contextLength: z.number().int(),
  contextFrom: z.enum(['loaded', 'plan', 'default']),
  /** Whether the server runs now (the setups work only while it does). */
  running: z.boolean(),
  setups: z.array(appSetupSchema),
});
export type AppSetups = z.infer<typeof appSetupsSchema>;

/** One request the local server answered (or is answering), for the log on its card. Never the prompt or reply. */
export const requestLogEntrySchema = z.object({
  id: z.string(),
  /** When it arrived (ISO). */
  at: z.string(),
  /** The client, shortened (`OpenAI/JS 6.x`, `curl/8`, `Chrome 140`); `userAgent` is the whole header. */
  client: z.string(),
  userAgent: z.string().optional(),
  /** The browser page that sent it, when one did. */
  origin: z.string().optional(),
  method: z.string(),
  path: z.string(),
  model: z.string().optional(),
  /** Absent while it is being answered. */
  status: z.number().int().optional(),
  durationMs: z.number().optional(),
  promptTokens: z.number().int().optional(),
  completionTokens: z.number().int().optional(),
  tokensPerSecond: z.number().optional(),
  /** What went wrong, in the words the client got (a refusal, a failure mid-stream, a client that went away). */
  error: z.string().optional(),
  /** The request body and the reply were kept ("keep request bodies" was on): `local.server.log.entry` has them. */
  kept: z.boolean(),
});
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

/** A kept request body (capped, with the key removed) and the reply's text. */
export const requestBodiesSchema = z.object({
  request: z.string().optional(),
  /** The body was longer than what is kept. */
  requestTruncated: z.boolean().optional(),
  reply: z.string().optional(),
  replyTruncated: z.boolean().optional(),
});
export type RequestBodies = z.infer<typeof requestBodiesSchema>;
