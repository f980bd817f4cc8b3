import { z } from 'zod';
import { call, watch } from './define';
import { appErrorSchema } from './error-schema';
import { repoIdSchema } from './hub';
import { normalizeOrigin, ORIGIN_HINT } from '../server-origin';

// The built-in llama.cpp engine: GGUF files on disk (downloaded, the Hugging Face cache, LM Studio's folder, folders
// the user adds), downloads from the Hub, loading and unloading, embeddings and the local OpenAI-compatible server.

/** Where a GGUF was found. Only `downloaded` files are HubDesk's own: the others are never deleted, only forgotten. */
export const localSourceSchema = z.enum(['downloaded', 'hf-cache', 'lmstudio', 'folder']);
export type LocalSource = z.infer<typeof localSourceSchema>;

/**
 * A local model's id: `<org>/<name>/<file>.gguf` when its Hub repo is known from the path (stable across cache
 * revisions and shared by a download and a cached copy of the same file), else the file's absolute path.
 */
const localModelIdSchema = z.string().trim().min(3).max(1024);

const loadPlanSchema = z.object({
  /** The context length the fit verdict proposes (the model's trained length, capped by what fits). */
  contextSize: z.number().int(),
  /** The model's trained context length, when the header says. */
  maxContext: z.number().int().optional(),
  /** Layers on the GPU the fit proposes: 0 on a machine without a GPU, `layers` when all fit. */
  gpuLayers: z.number().int(),
  layers: z.number().int().optional(),
  /**
   * Requests it answers at once (llama.cpp sequences, each with its own KV cache of `contextSize` tokens): as many
   * as fit beside the weights without changing the verdict, at most 4.
   */
  sequences: z.number().int().min(1).optional(),
  verdict: z.enum(['vram', 'partial', 'ram', 'too-large']).optional(),
  /** The fit verdict's plain explanation (needs about … compared with …). */
  explanation: z.string().optional(),
  /**
   * The memory the verdict counts for this plan (every sequence's KV cache included): the one figure the library,
   * the chat's model picker and Compare show for the model before it is loaded.
   */
  memory: z.object({ fileBytes: z.number(), kvBytes: z.number(), runtimeBytes: z.number() }).optional(),
});
export type LoadPlan = z.infer<typeof loadPlanSchema>;

const localModelSchema = z.object({
  id: localModelIdSchema,
  /** The file name without the split suffix and `.gguf`. */
  name: z.string(),
  /** The first (or only) file's absolute path. */
  path: z.string(),
  /** Split GGUFs (`-00001-of-0000N`): the number of parts, all present. */
  parts: z.number().int().min(1),
  source: localSourceSchema,
  /** The root folder it was found under (a Settings folder, the HF cache, LM Studio's models folder). */
  folder: z.string(),
  /** The Hub repo, from the path (HF cache `models--org--name`, LM Studio `publisher/repo`, downloads `org/name`). */
  repo: repoIdSchema.optional(),
  quant: z.string().optional(),
  architecture: z.string().optional(),
  /** `general.name` from the header. */
  title: z.string().optional(),
  sizeBytes: z.number(),
  /** An embedding model (BERT-like architectures, or a pooling type in the header): offered for embeddings only. */
  embedding: z.boolean(),
  /**
   * A reranker (a classification head, `cls.weight`/`cls.output.weight`, or the rank pooling type in the header):
   * offered for POST /v1/rerank only, never for chat or embeddings. Absent: not one.
   */
  reranker: z.boolean().optional(),
  /** HubDesk downloaded it and may delete it. */
  deletable: z.boolean(),
  /** The file's sha256 was compared with the Hub's LFS oid (downloads) or the blob name (HF cache) and matched. */
  verified: z.boolean().optional(),
  plan: loadPlanSchema.optional(),
  /** Why it cannot be used (not a GGUF, truncated, parts missing): listed so the user sees it, not offered to load. */
  problem: z.string().optional(),
});
export type LocalModel = z.infer<typeof localModelSchema>;

const localFolderSchema = z.object({
  path: z.string(),
  source: localSourceSchema,
  /** Found by HubDesk (HF cache, LM Studio, downloads) rather than added by the user. */
  auto: z.boolean(),
  exists: z.boolean(),
  /** Models listed from it (usable ones and the first MAX_PROBLEM_ROWS with a problem). */
  models: z.number().int(),
  /** Files with a problem past the first few hundred: counted, not listed (a folder of 50,000 broken files). */
  problemsHidden: z.number().int().nonnegative().optional(),
});
export type LocalFolder = z.infer<typeof localFolderSchema>;

const localModelsSchema = z.object({ models: z.array(localModelSchema), folders: z.array(localFolderSchema) });
export type LocalModels = z.infer<typeof localModelsSchema>;

const folderPathSchema = z
  .string()
  .trim()
  .min(1, 'a folder path is required')
  .max(4096)
  .refine((p) => !p.includes('\0'), 'not a valid path');

export const downloadStateSchema = z.enum([
  'queued',
  'downloading',
  'paused',
  'verifying',
  'done',
  'failed',
  'cancelled',
]);
export type DownloadState = z.infer<typeof downloadStateSchema>;

const downloadSchema = z.object({
  id: z.string(),
  repo: repoIdSchema,
  revision: z.string(),
  /** The file the user chose; `files` lists every part of a split GGUF, fetched together. */
  file: z.string(),
  files: z.array(z.string()),
  state: downloadStateSchema,
  receivedBytes: z.number(),
  totalBytes: z.number(),
  /** Over the last few seconds; 0 when not downloading. */
  bytesPerSecond: z.number(),
  etaSeconds: z.number().optional(),
  error: appErrorSchema.optional(),
  /** Failed because the bytes' sha256 did not match the Hub's: its files are deleted; "Delete and download again". */
  checksumMismatch: z.boolean().optional(),
  /** Once done and verified: the local model to load. */
  modelId: localModelIdSchema.optional(),
  createdAt: z.string(),
});
export type Download = z.infer<typeof downloadSchema>;

/** A GGUF file in a Hub repo: `name.gguf` or the first part `name-00001-of-0000N.gguf`. */
const ggufFileSchema = z
  .string()
  .trim()
  .min(6)
  .max(512)
  .regex(/^(?!.*\.\.)(?!\/)[^\0\\]+\.gguf$/i, 'a .gguf file in the repo');

const revisionSchema = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._/-]+$/, 'a branch, tag or commit');

const downloadIdSchema = z.object({ id: z.string().min(1).max(64) }).strict();

const loadedModelSchema = z.object({
  id: localModelIdSchema,
  name: z.string(),
  contextSize: z.number().int(),
  gpuLayers: z.number().int(),
  /** Requests it answers at once; more wait in order. */
  sequences: z.number().int(),
  /** CPU threads its context computes with. */
  threads: z.number().int().optional(),
  /** Requests being answered now, and waiting for a free sequence. */
  busy: z.number().int(),
  waiting: z.number().int(),
  /** The weights plus the context's KV cache and buffers, as llama.cpp reports them. */
  memoryBytes: z.number(),
  loadedAt: z.string(),
  /** When it unloads if left idle (absent: kept until unloaded by hand, or busy now). */
  unloadAt: z.string().optional(),
  embedding: z.boolean(),
  reranker: z.boolean().optional(),
});
export type LoadedModel = z.infer<typeof loadedModelSchema>;

const engineStatusSchema = z.object({
  /** Whether llama.cpp has been started in this run (it starts on first use, not at launch). */
  started: z.boolean(),
  /** The compute backend llama.cpp uses once started: `cpu`, `cuda`, `vulkan`, `metal`. */
  gpu: z.string().optional(),
  loaded: z.array(loadedModelSchema),
  /** Minutes a loaded model stays after its last use before it unloads; 0 keeps it until unloaded by hand. */
  keepAliveMinutes: z.number().int(),
  /** The engine could not start (its binaries missing or refused on this machine). */
  error: appErrorSchema.optional(),
  /** CPU threads per model: the user's count, or (auto) every math core but one. */
  threads: z.object({ value: z.number().int(), auto: z.boolean() }),
  /** The engine's own process (llama.cpp runs apart from the app) while it runs, with its memory when known. */
  host: z.object({ pid: z.number().int(), rssBytes: z.number().optional() }).optional(),
  /** The last time the engine's process ended unexpectedly, and why. */
  lastStop: z.object({ at: z.string(), message: z.string() }).optional(),
});
export type EngineStatus = z.infer<typeof engineStatusSchema>;

const serverStatusSchema = z.object({
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

const appSetupsSchema = z.object({
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

/** An allowlisted origin, already in the form a browser sends (`normalizeOrigin` makes it from what was typed). */
const corsOriginSchema = z
  .string()
  .max(300)
  .refine((o) => normalizeOrigin(o) === o, `not an origin: ${ORIGIN_HINT}`);

/** One request the local server answered (or is answering), for the log on its card. Never the prompt or reply. */
const requestLogEntrySchema = z.object({
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
const requestBodiesSchema = z.object({
  request: z.string().optional(),
  /** The body was longer than what is kept. */
  requestTruncated: z.boolean().optional(),
  reply: z.string().optional(),
  replyTruncated: z.boolean().optional(),
});
export type RequestBodies = z.infer<typeof requestBodiesSchema>;

/** A small GGUF HubDesk offers when nothing local is set up: the largest of a short list that fits this machine. */
const recommendationSchema = z.object({
  repo: repoIdSchema,
  file: z.string(),
  quant: z.string(),
  sizeBytes: z.number(),
  title: z.string(),
  why: z.string(),
  /** Already on disk: its local id, to load instead of download. */
  modelId: localModelIdSchema.optional(),
});
export type Recommendation = z.infer<typeof recommendationSchema>;

const empty = z.object({}).strict();

export const localCalls = {
  'local.models': call({ input: z.object({ refresh: z.boolean().optional() }).strict(), output: localModelsSchema }),
  'local.folders.add': call({ input: z.object({ path: folderPathSchema }).strict(), output: localModelsSchema }),
  /** A folder the user added is dropped; a found one (HF cache, LM Studio) is hidden. Its files stay on disk. */
  'local.folders.forget': call({ input: z.object({ path: folderPathSchema }).strict(), output: localModelsSchema }),
  /** Deletes a model HubDesk downloaded (every part); refuses any other file. */
  'local.delete': call({ input: z.object({ id: localModelIdSchema }).strict(), output: localModelsSchema }),
  'local.recommend': call({ input: empty, output: z.object({ recommendation: recommendationSchema.optional() }) }),

  'local.downloads': call({ input: empty, output: z.object({ downloads: z.array(downloadSchema) }) }),
  /** Snapshots of the download list as it changes (at most a few a second), until the caller stops listening. */
  'local.downloads.watch': watch({
    input: empty,
    event: z.object({ downloads: z.array(downloadSchema) }),
    result: z.object({ ended: z.literal(true) }),
  }),
  'local.download.start': call({
    input: z.object({ repo: repoIdSchema, file: ggufFileSchema, revision: revisionSchema.optional() }).strict(),
    output: downloadSchema,
  }),
  'local.download.pause': call({ input: downloadIdSchema, output: downloadSchema }),
  'local.download.resume': call({ input: downloadIdSchema, output: downloadSchema }),
  /** A failed download's files deleted (every part), then fetched again from the first byte. */
  'local.download.restart': call({ input: downloadIdSchema, output: downloadSchema }),
  /** Stops it and deletes its partial files. */
  'local.download.cancel': call({ input: downloadIdSchema, output: downloadSchema }),
  /** Takes a finished, failed or cancelled download off the list. */
  'local.download.dismiss': call({ input: downloadIdSchema, output: z.object({ downloads: z.array(downloadSchema) }) }),

  'local.status': call({ input: empty, output: engineStatusSchema }),
  'local.load': call({
    input: z
      .object({
        id: localModelIdSchema,
        contextSize: z.number().int().min(128).max(1_048_576).optional(),
        gpuLayers: z.number().int().min(0).max(1000).optional(),
        sequences: z.number().int().min(1).max(16).optional(),
        /** CPU threads for this load; the engine's setting (`local.threads`) by default. */
        threads: z.number().int().min(1).max(256).optional(),
      })
      .strict(),
    output: engineStatusSchema,
  }),
  /** CPU threads per model from the next load on; 0 goes back to the automatic count. */
  'local.threads': call({
    input: z.object({ threads: z.number().int().min(0).max(256) }).strict(),
    output: engineStatusSchema,
  }),
  /** Unloads one model, or every loaded model without an id. */
  'local.keepAlive': call({
    input: z.object({ minutes: z.number().int().min(0).max(10_080) }).strict(),
    output: engineStatusSchema,
  }),
  'local.unload': call({ input: z.object({ id: localModelIdSchema.optional() }).strict(), output: engineStatusSchema }),
  'local.embed': call({
    input: z
      .object({
        id: localModelIdSchema,
        input: z.union([z.string().max(200_000), z.array(z.string().max(200_000)).min(1).max(256)]),
      })
      .strict(),
    output: z.object({ model: z.string(), embeddings: z.array(z.array(z.number())) }),
  }),

  'local.server.status': call({ input: empty, output: serverStatusSchema }),
  'local.server.set': call({
    input: z
      .object({
        enabled: z.boolean().optional(),
        port: z.number().int().min(1024).max(65_535).optional(),
        /** A new key (16+ characters), or null to forget the stored one. */
        key: z.string().trim().min(16, 'use at least 16 characters').max(256).nullable().optional(),
        /** Serve on the local network (0.0.0.0) too. */
        lan: z.boolean().optional(),
        /** The whole allowlist of browser origins (replaces the previous one). */
        corsOrigins: z.array(corsOriginSchema).max(32).optional(),
        keepBodies: z.boolean().optional(),
      })
      .strict(),
    output: serverStatusSchema,
  }),
  /** A new random key for the server, stored like a typed one (refused while HUBDESK_LOCAL_SERVER_KEY sets it). */
  'local.server.key.generate': call({ input: empty, output: serverStatusSchema }),
  /**
   * "Copy key", the only way the key leaves main: the desktop app puts it on the clipboard itself (`copied`); the
   * web mode has no clipboard of the browser's, so it answers the key once for the page to copy and drop.
   */
  'local.server.key.copy': call({
    input: empty,
    output: z.object({ copied: z.boolean(), key: z.string().optional() }),
  }),
  /** Ready setups for other apps (SDKs, editors, agents, curl) using one local chat model through the server. */
  'local.server.setups': call({ input: z.object({ model: localModelIdSchema }).strict(), output: appSetupsSchema }),

  /** The server's recent requests (the last 200, newest first): the list at once, then again on each change. */
  'local.server.log.watch': watch({
    input: empty,
    event: z.object({ entries: z.array(requestLogEntrySchema) }),
    result: z.object({ ended: z.literal(true) }),
  }),
  /** One logged request's kept body and reply (empty when they were not kept, or the entry is gone). */
  'local.server.log.entry': call({
    input: z.object({ id: z.string().min(1).max(64) }).strict(),
    output: requestBodiesSchema,
  }),
  'local.server.log.clear': call({ input: empty, output: z.object({ cleared: z.literal(true) }) }),
};
