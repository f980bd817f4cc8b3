import { z } from 'zod';
import { modelRecordSchema } from '../model-record';
import { call } from './define';
import { repoIdSchema } from './hub';

export const snippetKinds = ['inference', 'library', 'local-app', 'local-server'] as const;
const snippetKindSchema = z.enum(snippetKinds);
export type SnippetKind = z.infer<typeof snippetKindSchema>;

/** One generated snippet; `language` is python | js | sh (library snippets are classified by content). */
export const snippetSchema = z.object({
  kind: snippetKindSchema,
  language: z.string(),
  client: z.string(),
  title: z.string().optional(),
  /** A setup note the library gives (local apps). */
  setup: z.string().optional(),
  content: z.string(),
  /** The install line this snippet needs (`pip install …`, `npm install …`), when known. */
  install: z.string().optional(),
  /** What HubDesk changed in the library's output, and why (e.g. shell quoting the library got wrong). */
  note: z.string().optional(),
});
export type Snippet = z.infer<typeof snippetSchema>;

const chatMessageSchema = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string().max(20_000) });

/** The user's choices in the options bar: what the library's getInferenceSnippets options become. */
export const snippetOptionsSchema = z
  .object({
    /** hf-inference (default), auto, or a provider of the model's inferenceProviderMapping. */
    provider: z
      .string()
      .trim()
      .max(64)
      .regex(/^[a-z0-9-]+$/, 'a provider id such as hf-inference, auto or together')
      .optional(),
    streaming: z.boolean().optional(),
    billTo: z
      .string()
      .trim()
      .max(96)
      .regex(/^$|^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'an organisation name')
      .optional(),
    endpointUrl: z
      .string()
      .trim()
      .max(2048)
      .refine((s) => s === '' || /^https?:\/\/[^\s/]+/i.test(s), 'must be an http(s) URL')
      .optional(),
    directRequest: z.boolean().optional(),
    /** Custom sample input as the user typed it; JSON-encoded before it reaches the library. */
    inputs: z.string().max(20_000).optional(),
    messages: z.array(chatMessageSchema).max(50).optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
    top_p: z.number().min(0).max(1).optional(),
  })
  .strict();
export type SnippetOptions = z.infer<typeof snippetOptionsSchema>;

const providerChoiceSchema = z.object({
  id: z.string(),
  status: z.enum(['live', 'staging']).optional(),
  /** The provider's own model id (from the mapping). */
  providerId: z.string().optional(),
});
export type ProviderChoice = z.infer<typeof providerChoiceSchema>;

const snippetSectionSchema = z.object({
  kind: snippetKindSchema,
  snippets: z.array(snippetSchema),
  /** Why there are no snippets (e.g. the task/provider pair has none): shown instead of an empty editor. */
  notice: z.string().optional(),
  /** The library threw: its message. */
  error: z.string().optional(),
  /** The snippets are shown, but will not work as they are (e.g. no provider serves the model). */
  warning: z.string().optional(),
});
export type SnippetSection = z.infer<typeof snippetSectionSchema>;

const deeplinkSchema = z.object({ app: z.string(), label: z.string(), url: z.string() });

const snippetsResultSchema = z.object({
  modelId: z.string(),
  provider: z.string(),
  providers: z.array(providerChoiceSchema),
  /** The model's sample input on one line (the options bar shows it as the custom input's placeholder). */
  sampleInput: z.string().optional(),
  sections: z.array(snippetSectionSchema),
  /** Local apps that open by link rather than a snippet (LM Studio, Jan…): shown as buttons. */
  deeplinks: z.array(deeplinkSchema),
  /** "Insert my token" only: why the token was not written in (the snippets read it from the environment). */
  tokenWithheld: z.string().optional(),
});
export type SnippetsResult = z.infer<typeof snippetsResultSchema>;

const snippetsRequestSchema = z
  .object({
    model: modelRecordSchema,
    quant: z
      .string()
      .trim()
      .max(40)
      .regex(/^[A-Za-z0-9_.-]+$/, 'a GGUF quantization such as Q4_K_M')
      .optional(),
    kinds: z.array(snippetKindSchema).optional(),
    options: snippetOptionsSchema.default({}),
    /** A temporary provider token the renderer already holds (a 2-minute fal token), written into the snippets. */
    tempToken: z.string().trim().min(8).max(4096).optional(),
  })
  .strict();

/** "Use this dataset" and a Space's "Use via API": the app's own templates (library snippets) for a dataset or Space. */
const repoSnippetsRequestSchema = z
  .object({
    kind: z.enum(['dataset', 'space']),
    id: repoIdSchema,
    /** Datasets: the repo's files as listed, so pandas reads a real data file. */
    files: z.array(z.string().max(1000)).max(5000).optional(),
    /** Spaces: the SDK (a Gradio Space gets the `gradio_client` snippets). */
    sdk: z.string().max(40).optional(),
  })
  .strict();

export const snippetsCalls = {
  'snippets.repo': call({
    input: repoSnippetsRequestSchema,
    output: z.object({
      snippets: z.array(snippetSchema),
      /** Spaces: where the running app is served (`https://<owner>-<name>.hf.space`). */
      appUrl: z.string().optional(),
    }),
  }),
  'snippets.generate': call({ input: snippetsRequestSchema, output: snippetsResultSchema }),
  /** The one deliberate exception: renders the inference snippets with the user's real HF token, after a warning. */
  'snippets.withToken': call({ input: snippetsRequestSchema, output: snippetsResultSchema }),
  /** Desktop only: opens the save dialog in main and writes atomically to the path it returns. */
  'snippets.save': call({
    input: z
      .object({
        fileName: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .regex(/^[^/\\\0]+$/, 'a file name, not a path'),
        content: z.string().max(2_000_000),
      })
      .strict(),
    output: z.object({ saved: z.boolean(), path: z.string().optional() }),
  }),
  /** A 2-minute fal token for one app; the long-lived key never leaves main. */
  'fal.tempToken': call({
    input: z
      .object({
        endpointId: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'a fal endpoint id such as fal-ai/flux/dev'),
      })
      .strict(),
    output: z.object({ token: z.string(), app: z.string(), expiresInSeconds: z.number(), expiresAt: z.number() }),
  }),
};
