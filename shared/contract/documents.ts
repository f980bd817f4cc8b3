import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { call, watch } from './define';

/**
 * Documents: files and folders attached to a conversation or to a named knowledge base, indexed in main (text
 * extracted, chunked, embedded with a local embedding model, stored in the chat store's libsql file with a vector
 * index and an FTS5 index) and retrieved by hybrid search for the chat's replies, which cite their passages.
 */

export const baseIdSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^b_[a-z0-9]+$/, 'not a valid knowledge base id');
const sourceIdSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^s_[a-z0-9]+$/, 'not a valid document source id');
const documentIdSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^d_[a-z0-9]+$/, 'not a valid document id');
const chunkIdSchema = z.number().int().min(1);
const conversationIdSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^[a-z]_[a-z0-9]+$/, 'not a valid id');

/** Where an attachment goes: a conversation's own documents, or a named knowledge base. */
export const docTargetSchema = z.union([
  z.object({ conversation: conversationIdSchema }).strict(),
  z.object({ base: baseIdSchema }).strict(),
]);
export type DocTarget = z.infer<typeof docTargetSchema>;

/** The embedding model an index is built with. */
export const embedderSchema = z
  .object({ backend: z.enum(['ollama', 'local']), model: z.string().trim().min(1).max(350) })
  .strict();
export type Embedder = z.infer<typeof embedderSchema>;

const documentKindSchema = z.enum(['text', 'markdown', 'code', 'pdf', 'docx', 'html', 'csv', 'json']);

/** One file's indexing state: `queued` → `extracting` → `embedding` → `ready`, or `error` with the reason. */
export const documentSchema = z.object({
  id: documentIdSchema,
  source: sourceIdSchema,
  /** The file's name and its path under the attached folder (or the file's own name). */
  name: z.string(),
  path: z.string(),
  kind: documentKindSchema.optional(),
  sizeBytes: z.number().int().min(0),
  state: z.enum(['queued', 'extracting', 'embedding', 'ready', 'error']),
  chunks: z.number().int().min(0),
  chunksDone: z.number().int().min(0),
  tokens: z.number().int().min(0),
  pages: z.number().int().min(0).optional(),
  /** While embedding: chunks per second and the time left. */
  chunksPerSecond: z.number().optional(),
  etaMs: z.number().optional(),
  error: appErrorSchema.optional(),
  /** Sent whole to the model whenever it fits, never by retrieval. */
  pinned: z.boolean(),
});
export type DocumentInfo = z.infer<typeof documentSchema>;

/** What was attached: a file or a folder indexed in place (watched for changes), or a file uploaded into HubDesk. */
const docSourceSchema = z.object({
  id: sourceIdSchema,
  kind: z.enum(['file', 'folder', 'upload']),
  path: z.string(),
  exists: z.boolean(),
});

export const knowledgeBaseSchema = z.object({
  id: baseIdSchema,
  name: z.string(),
  /** A conversation's own attachments, or a named base any chat can use. */
  conversation: conversationIdSchema.optional(),
  embedder: embedderSchema.optional(),
  sources: z.array(docSourceSchema),
  documents: z.array(documentSchema),
  /** A new embedding model's index being built; the old one serves until it is complete. */
  reembedding: z.object({ embedder: embedderSchema, done: z.number().int(), total: z.number().int() }).optional(),
  /** Indexing stopped by `docs.cancel` (`docs.resume` goes on). */
  paused: z.boolean().optional(),
  /** Why indexing stopped for the whole base (no embedding model, Ollama not running…); `docs.resume` retries. */
  error: appErrorSchema.optional(),
});
export type KnowledgeBase = z.infer<typeof knowledgeBaseSchema>;

/** A passage given to the model with a reply, numbered as the model was asked to cite it ([1], [2]…). */
export const citationSchema = z.object({
  n: z.number().int().min(1),
  chunk: chunkIdSchema,
  document: documentIdSchema,
  name: z.string(),
  page: z.number().int().optional(),
  heading: z.string().optional(),
  excerpt: z.string().max(2_000),
});
export type Citation = z.infer<typeof citationSchema>;

/** How a reply's documents reached the model. */
export const replyContextSchema = z.object({
  mode: z.enum(['whole', 'retrieved']),
  citations: z.array(citationSchema),
  /** Documents not read yet when the question was asked: the answer did not see them (the reply says so). */
  notIndexed: z.array(z.string()).optional(),
  /**
   * Documents searched by their words alone (BM25): their vectors were not ready, or the question could not be
   * embedded. Their passages were given to the model, found without meaning search.
   */
  wordsOnly: z.array(z.string()).optional(),
  /** The context text sent to the model (for "Open as code" and exports). */
  text: z.string().max(2_000_000).optional(),
});
export type ReplyContext = z.infer<typeof replyContextSchema>;

/** A passage as opened from a citation: the chunk's text with where it is in its document. */
export const passageSchema = z.object({
  chunk: chunkIdSchema,
  document: documentIdSchema,
  name: z.string(),
  path: z.string(),
  page: z.number().int().optional(),
  heading: z.string().optional(),
  text: z.string(),
});
export type Passage = z.infer<typeof passageSchema>;

/** A hit of `docs.search` (what retrieval would give the model), ranked by the fused score. */
const searchHitSchema = passageSchema.extend({
  score: z.number(),
  /** Ranks in each half of the hybrid search (absent: not in that half's top results). */
  vectorRank: z.number().int().optional(),
  textRank: z.number().int().optional(),
  /** Its BM25 score (higher is better), when the words found it. */
  textScore: z.number().optional(),
  /** Cosine similarity of its vector to the question's (absent: no vector yet, or words-only search). */
  similarity: z.number().optional(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

const uploadIdSchema = z
  .string()
  .max(64)
  .regex(/^u_[a-z0-9]+$/, 'not a valid upload id');
/** Base64 characters per upload part (3 MB of file per part). */
export const DOC_UPLOAD_PART_CHARS = 4 * 1024 * 1024;

const baseOut = z.object({ base: knowledgeBaseSchema });
const pathSchema = z.string().trim().min(1, 'a file or folder path is required').max(4096);

export const documentCalls = {
  /** The named knowledge bases, and (with `conversation`) that conversation's own attachments' base if it has one. */
  'docs.bases': call({
    input: z.object({ conversation: conversationIdSchema.optional() }).strict(),
    output: z.object({ bases: z.array(knowledgeBaseSchema), embedder: embedderSchema.optional() }),
  }),
  'docs.bases.create': call({ input: z.object({ name: z.string().trim().min(1).max(120) }).strict(), output: baseOut }),
  'docs.bases.rename': call({
    input: z.object({ id: baseIdSchema, name: z.string().trim().min(1).max(120) }).strict(),
    output: baseOut,
  }),
  /** Deletes a base and its index; files attached in place are never touched, uploaded copies are removed. */
  'docs.bases.delete': call({
    input: z.object({ id: baseIdSchema }).strict(),
    output: z.object({ deleted: z.literal(true) }),
  }),
  /** Attaches a file or a folder where it is (indexed in place, never copied; a folder is watched for changes). */
  'docs.attachPath': call({
    input: z.object({ target: docTargetSchema, path: pathSchema }).strict(),
    output: baseOut,
  }),
  /** Desktop: main's open dialog picks the files or the folder (web mode: unavailable; the page uploads). */
  'docs.attachPick': call({
    input: z.object({ target: docTargetSchema, folder: z.boolean().default(false) }).strict(),
    output: z.object({ base: knowledgeBaseSchema.optional() }),
  }),
  /** Part of a file the page sends (drag and drop, the browser's file picker): kept by main until `docs.attachUpload`. */
  'docs.uploadPart': call({
    input: z.object({ upload: uploadIdSchema.optional(), data: z.string().min(1).max(DOC_UPLOAD_PART_CHARS) }).strict(),
    output: z.object({ upload: uploadIdSchema }),
  }),
  /** Attaches an uploaded file (a copy kept in HubDesk's data folder) under its name. */
  'docs.attachUpload': call({
    input: z
      .object({ target: docTargetSchema, upload: uploadIdSchema, name: z.string().trim().min(1).max(255) })
      .strict(),
    output: baseOut,
  }),
  /** Removes a source and its documents from the index (files in place are never touched). */
  'docs.remove': call({ input: z.object({ source: sourceIdSchema }).strict(), output: baseOut }),
  /** Sends a document whole whenever it fits the model's context (`pinned`), or by retrieval. */
  'docs.pin': call({
    input: z.object({ document: documentIdSchema, pinned: z.boolean() }).strict(),
    output: baseOut,
  }),
  /** Stops indexing a base (what is embedded stays; `docs.resume` goes on from there). */
  'docs.cancel': call({ input: z.object({ base: baseIdSchema }).strict(), output: baseOut }),
  'docs.resume': call({ input: z.object({ base: baseIdSchema }).strict(), output: baseOut }),
  /** The embedding model every base is indexed with; a new one re-embeds in the background (the old index serves). */
  'docs.embedder.set': call({
    input: embedderSchema,
    output: z.object({ embedder: embedderSchema }),
  }),
  /** Indexing progress: the bases with their documents, at once and on each change, until cancelled. */
  'docs.watch': watch({
    input: z.object({ conversation: conversationIdSchema.optional() }).strict(),
    event: z.object({ bases: z.array(knowledgeBaseSchema) }),
    result: z.object({ ended: z.literal(true) }),
  }),
  /** A cited passage, to open. */
  'docs.passage': call({ input: z.object({ chunk: chunkIdSchema }).strict(), output: passageSchema }),
  /** Hybrid search over bases, as retrieval for a reply does (vectors and BM25, fused). */
  'docs.search': call({
    input: z
      .object({
        bases: z.array(baseIdSchema).min(1).max(32),
        query: z.string().trim().min(1).max(10_000),
        limit: z.number().int().min(1).max(50).default(8),
      })
      .strict(),
    output: z.object({ hits: z.array(searchHitSchema) }),
  }),
};
