import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { call, stream } from './define';
import { chatFiguresSchema } from './chat-message';
import { chatBackendSchema, chatParamsSchema, conversationMetaSchema } from './chat-conversation';
import { endpointIdSchema } from './endpoints';

/**
 * Compare: one prompt to 2–4 panes, each any engine and model (the same model twice with other settings is
 * allowed), streamed side by side with each answer's speed. Main decides whether the panes can run together
 * (their models fit in memory at once) or must run one after another, loads each model before its first run so
 * the load time is reported apart from the time to first token, and keeps every comparison, vote and saved set in
 * the chat store.
 */

const compareRunIdSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^r_[a-z0-9]+$/, 'not a valid comparison id');
const compareSetIdSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^k_[a-z0-9]+$/, 'not a valid comparison set id');

/** One pane: where its answer comes from, and its own settings over the shared ones. */
export const comparePaneSchema = z
  .object({
    backend: chatBackendSchema,
    model: z.string().trim().min(1, 'Choose a model for every pane.').max(350),
    /** Router only: `auto` or a provider id. */
    provider: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9-]+$/, 'a provider id such as auto or together')
      .default('auto'),
    /** `endpoint` only: which of the user's endpoints. */
    endpoint: endpointIdSchema.optional(),
    /** Laid over the set's shared parameters (e.g. the same model at another temperature or context). */
    params: chatParamsSchema.default({}),
  })
  .strict();
export type ComparePane = z.infer<typeof comparePaneSchema>;
export type ComparePaneInput = z.input<typeof comparePaneSchema>;

/** What a comparison sends: panes, and the system prompt, parameters, repeats and blindness they share. */
export const compareSetSchema = z
  .object({
    panes: z
      .array(comparePaneSchema)
      .min(2, 'Compare needs at least 2 panes.')
      .max(4, 'Compare takes at most 4 panes.'),
    system: z.string().max(100_000).default(''),
    params: chatParamsSchema.default({}),
    /** Each pane answers this many times; the figures shown are the medians. */
    repeat: z.number().int().min(1).max(10).default(1),
    /** Names hidden (and panes shuffled) until the user votes. */
    blind: z.boolean().default(false),
  })
  .strict();
export type CompareSet = z.infer<typeof compareSetSchema>;
export type CompareSetInput = z.input<typeof compareSetSchema>;

/** Where a pane's model runs, for the scheduler: in Ollama or the built-in engine here, or on another server. */
const paneWhereSchema = z.enum(['ollama', 'local', 'remote']);

/** The scheduler's decision, said before anything runs. */
export const comparePlanSchema = z.object({
  mode: z.enum(['parallel', 'sequential']),
  /** In words: "Both fit in memory together (5.1 GB of 14.2 GB free)." / "…: one after another." */
  reason: z.string(),
  /** Per pane, in the set's order: where it runs, the memory its model needs (when known), whether it is loaded. */
  panes: z.array(z.object({ where: paneWhereSchema, bytes: z.number().min(0).optional(), loaded: z.boolean() })),
});
export type ComparePlan = z.infer<typeof comparePlanSchema>;

/** One answer of one pane (a pane answers `repeat` times). */
export const compareAnswerSchema = z.object({
  content: z.string().max(10_000_000),
  thinking: z.string().max(10_000_000).optional(),
  status: z.enum(['complete', 'stopped', 'error']),
  error: appErrorSchema.optional(),
  /** Time to first token excludes loading: the model is loaded before the first run. */
  figures: chatFiguresSchema.optional(),
});
export type CompareAnswer = z.infer<typeof compareAnswerSchema>;

/**
 * A pane as shown, by its position (`slot`). Blind: panes are shuffled and `pane` is absent until the vote, the
 * label is "Model A", "Model B"…; otherwise the label names the engine and model ("Ollama · llama3.2:latest").
 */
export const compareSlotSchema = z.object({
  label: z.string(),
  pane: comparePaneSchema.optional(),
  /** How long loading the model took before its first run (absent: already loaded, or a remote server). */
  loadMs: z.number().min(0).optional(),
  answers: z.array(compareAnswerSchema),
  /** Medians over the complete answers (each figure on its own). */
  median: chatFiguresSchema.optional(),
});
export type CompareSlot = z.infer<typeof compareSlotSchema>;

/** A comparison, kept in the chat store: what was sent, the plan, and every pane's answers. */
export const compareRunSchema = z.object({
  id: compareRunIdSchema,
  createdAt: z.string(),
  prompt: z.string(),
  system: z.string(),
  params: chatParamsSchema,
  repeat: z.number().int(),
  blind: z.boolean(),
  plan: comparePlanSchema,
  slots: z.array(compareSlotSchema),
  /** The user's vote: the winning slot, or null for a tie. */
  vote: z.object({ winner: z.number().int().min(0).nullable(), at: z.string() }).optional(),
});
export type CompareRun = z.infer<typeof compareRunSchema>;

const slotIndex = z.number().int().min(0).max(3);
const runIndex = z.number().int().min(0).max(9);

/** What a comparison reports while it runs; the renderer applies them in order. */
export const compareEventSchema = z.discriminatedUnion('type', [
  /** First: the comparison's id, the plan, and the slots as they will be shown (labels only). */
  z.object({
    type: z.literal('start'),
    id: compareRunIdSchema,
    plan: comparePlanSchema,
    slots: z.array(z.object({ label: z.string() })),
  }),
  /** A slot's state: waiting its turn, loading its model, streaming answer `run`, or finished. */
  z.object({
    type: z.literal('state'),
    slot: slotIndex,
    run: runIndex,
    state: z.enum(['waiting', 'loading', 'streaming', 'done']),
  }),
  /** The slot's model is loaded (or failed to load: then a `run-end` with the error follows). */
  z.object({ type: z.literal('loaded'), slot: slotIndex, loadMs: z.number().min(0) }),
  /** Text added to answer `run` of a slot. */
  z.object({
    type: z.literal('delta'),
    slot: slotIndex,
    run: runIndex,
    content: z.string().optional(),
    thinking: z.string().optional(),
  }),
  /** Answer `run` of a slot ended (complete, stopped or failed: the other panes go on). */
  z.object({ type: z.literal('run-end'), slot: slotIndex, run: runIndex, answer: compareAnswerSchema }),
]);
export type CompareEvent = z.infer<typeof compareEventSchema>;

/** A short line per comparison, for "Recent comparisons". */
const compareSummarySchema = z.object({
  id: compareRunIdSchema,
  createdAt: z.string(),
  prompt: z.string().max(200),
  labels: z.array(z.string()),
  blind: z.boolean(),
  voted: z.boolean(),
});
export type CompareSummary = z.infer<typeof compareSummarySchema>;

/** A saved comparison set: panes and shared settings, to open again. */
export const savedCompareSetSchema = z.object({
  id: compareSetIdSchema,
  name: z.string(),
  set: compareSetSchema,
  updatedAt: z.string(),
});
export type SavedCompareSet = z.infer<typeof savedCompareSetSchema>;

/** Wins per model and quant on this machine, from blind votes. */
export const scoreboardRowSchema = z.object({
  backend: chatBackendSchema,
  /** The engine and model, as named in the panes ("Ollama · hf.co/x/y-GGUF:Q4_K_M"). */
  label: z.string(),
  model: z.string(),
  /** The quant the model name carries (Q4_K_M, Q8_0…), when it says one. */
  quant: z.string().optional(),
  wins: z.number().int().min(0),
  losses: z.number().int().min(0),
  ties: z.number().int().min(0),
});
export type ScoreboardRow = z.infer<typeof scoreboardRowSchema>;

const byId = z.object({ id: compareRunIdSchema }).strict();
const exportFile = z.object({ filename: z.string(), mime: z.string(), text: z.string() });

export const compareCalls = {
  /** How the set would run (together or one after another, and why), before anything is sent. */
  'compare.plan': call({ input: compareSetSchema, output: comparePlanSchema }),
  /** Sends one prompt to every pane; Stop (cancelling the stream) stops them all and keeps their text. */
  'compare.run': stream({
    input: compareSetSchema.extend({ prompt: z.string().trim().min(1, 'Write a prompt to compare.').max(100_000) }),
    event: compareEventSchema,
    result: compareRunSchema,
  }),
  'compare.get': call({ input: byId, output: compareRunSchema }),
  /** The latest comparisons, newest first. */
  'compare.recent': call({
    input: z.object({ limit: z.number().int().min(1).max(100).default(20) }).strict(),
    output: z.object({ runs: z.array(compareSummarySchema) }),
  }),
  'compare.delete': call({ input: byId, output: z.object({ deleted: z.literal(true) }) }),
  /** Blind comparisons: the vote (a slot, or null for a tie) reveals the names and counts on the scoreboard. */
  'compare.vote': call({
    input: z.object({ id: compareRunIdSchema, winner: slotIndex.nullable() }).strict(),
    output: compareRunSchema,
  }),
  /** This machine's wins per model and quant, most wins first. */
  'compare.scoreboard': call({
    input: z.object({}).strict(),
    output: z.object({ machine: z.string(), rows: z.array(scoreboardRowSchema) }),
  }),
  /** Continues one pane as a normal conversation: the system prompt, the prompt and that answer (with figures). */
  'compare.continue': call({
    input: z.object({ id: compareRunIdSchema, slot: slotIndex, run: runIndex.default(0) }).strict(),
    output: conversationMetaSchema,
  }),
  /** The comparison as Markdown: the prompt, each pane's answer and its figures. */
  'compare.export': call({ input: byId, output: exportFile }),
  'compare.sets': call({
    input: z.object({}).strict(),
    output: z.object({ sets: z.array(savedCompareSetSchema) }),
  }),
  /** Saves a set under a name (a new one, or over `id`). */
  'compare.sets.save': call({
    input: z
      .object({ id: compareSetIdSchema.optional(), name: z.string().trim().min(1).max(120), set: compareSetSchema })
      .strict(),
    output: savedCompareSetSchema,
  }),
  'compare.sets.delete': call({
    input: z.object({ id: compareSetIdSchema }).strict(),
    output: z.object({ deleted: z.literal(true) }),
  }),
};
