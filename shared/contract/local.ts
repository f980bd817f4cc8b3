import { z } from 'zod';
import { call, watch } from './define';
import { repoIdSchema } from './hub';
import { normalizeOrigin, ORIGIN_HINT } from '../server-origin';
import { localModelIdSchema, localModelsSchema, recommendationSchema } from './local-models';
import { downloadSchema } from './local-downloads';
import { engineStatusSchema } from './local-engine';
import { appSetupsSchema, requestBodiesSchema, requestLogEntrySchema, serverStatusSchema } from './local-server';

// The built-in llama.cpp engine: GGUF files on disk (downloaded, the Hugging Face cache, LM Studio's folder, folders
// the user adds), downloads from the Hub, loading and unloading, embeddings and the local OpenAI-compatible server.
// The shapes the calls carry are in the files beside this one: local-models (models on disk, their load plans and the
// recommendation), local-downloads, local-engine (the loaded models) and local-server (the local server, its setups
// for other apps and its request log).

const folderPathSchema = z
  .string()
  .trim()
  .min(1, 'a folder path is required')
  .max(4096)
  .refine((p) => !p.includes('\0'), 'not a valid path');

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

/** An allowlisted origin, already in the form a browser sends (`normalizeOrigin` makes it from what was typed). */
const corsOriginSchema = z
  .string()
  .max(300)
  .refine((o) => normalizeOrigin(o) === o, `not an origin: ${ORIGIN_HINT}`);

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
