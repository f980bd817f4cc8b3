import { z } from 'zod';
import { call } from './define';
import { hardwareOverrideSchema } from './hardware';

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => /^https?:\/\/[^\s/]+/i.test(s), 'must be an http(s) URL');

const hubAccessSchema = z.enum(['ask', 'online', 'offline']);
export type HubAccess = z.infer<typeof hubAccessSchema>;

const themeSchema = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof themeSchema>;

export const settingsSchema = z.object({
  ollamaHost: httpUrl,
  hubEndpoint: httpUrl,
  routerUrl: httpUrl,
  falRestBase: httpUrl,
  defaultProvider: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9-]+$/, 'a provider id such as hf-inference, auto or together'),
  billTo: z
    .string()
    .trim()
    .max(96)
    .regex(/^$|^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'an organisation name, or empty'),
  theme: themeSchema,
  /**
   * Whether HubDesk may ask the Hub: `ask` until the user chooses on the first-run screen (nothing is sent before),
   * then `online` (search and model details come from the Hub) or `offline` (embedded catalogue and cache only).
   */
  hubAccess: hubAccessSchema,
  /** The user's own hardware figures for the GGUF fit verdicts (absent: what main detects). */
  hardwareOverride: hardwareOverrideSchema.optional(),
  /** Hosts that never go through the proxy, NO_PROXY's way (`.corp.example, 10.0.0.0, intranet:8080`). */
  noProxy: z
    .string()
    .trim()
    .max(2000)
    .regex(/^[\w.*:[\]\-,\s]*$/, 'host names, domains (.example.com), addresses and ports, separated by commas'),
  /** A PEM file of extra certificate authorities to trust (a company's TLS-inspecting proxy); empty: none. */
  caFile: z.string().trim().max(4096),
});
export type Settings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof Settings;

/** A patch: a value sets the field, `null` returns it to its environment/default value. */
const settingsPatchSchema = z
  .object({
    ollamaHost: settingsSchema.shape.ollamaHost.nullable(),
    hubEndpoint: settingsSchema.shape.hubEndpoint.nullable(),
    routerUrl: settingsSchema.shape.routerUrl.nullable(),
    falRestBase: settingsSchema.shape.falRestBase.nullable(),
    defaultProvider: settingsSchema.shape.defaultProvider.nullable(),
    billTo: settingsSchema.shape.billTo.nullable(),
    theme: themeSchema.nullable(),
    hubAccess: hubAccessSchema.nullable(),
    hardwareOverride: hardwareOverrideSchema.nullable(),
    noProxy: settingsSchema.shape.noProxy.nullable(),
    caFile: settingsSchema.shape.caFile.nullable(),
  })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

const settingSourceSchema = z.enum(['default', 'env', 'user']);

/** The keys main sends to services (each bound to its hosts). */
export const keyNames = ['hfToken', 'falKey', 'ollamaApiKey'] as const;
const keyNameSchema = z.enum(keyNames);
export type KeyName = z.infer<typeof keyNameSchema>;
/** Every secret main holds: the keys, and the manual proxy address (it may carry a password). */
export const secretNames = [...keyNames, 'proxy'] as const;
const secretNameSchema = z.enum(secretNames);
export type SecretName = z.infer<typeof secretNameSchema>;

/** What the renderer may know of a secret: never its value. */
const secretStatusSchema = z.object({
  name: secretNameSchema,
  set: z.boolean(),
  last4: z.string().max(4).optional(),
  source: z.enum(['none', 'env', 'stored', 'session']),
  /** Whether setting it here survives a restart (encrypted store) or lasts only for this session. */
  persistent: z.boolean(),
  envVar: z.string(),
});
export type SecretStatus = z.infer<typeof secretStatusSchema>;

/** The settings that name a server main sends a key to. */
export const endpointSettings = ['hubEndpoint', 'routerUrl', 'falRestBase', 'ollamaHost'] as const;
const endpointSettingSchema = z.enum(endpointSettings);
export type EndpointSetting = z.infer<typeof endpointSettingSchema>;

/**
 * Which key goes where: a key is sent only to its own service's hosts, to a host set outside the page (environment,
 * command line), or to an origin the user approved outside the renderer.
 */
const keyBindingSchema = z.object({
  setting: endpointSettingSchema,
  key: keyNameSchema,
  origin: z.string(),
  bound: z.boolean(),
  source: z.enum(['builtin', 'env', 'approved']).optional(),
});
export type KeyBinding = z.infer<typeof keyBindingSchema>;

const settingsViewSchema = z.object({
  values: settingsSchema,
  sources: z.record(z.string(), settingSourceSchema),
  secrets: z.array(secretStatusSchema),
  bindings: z.array(keyBindingSchema),
  /** Desktop: main can ask the user to approve a host; web mode: only the environment binds hosts. */
  canApproveHosts: z.boolean(),
  /**
   * How secrets set in the app are kept: the OS keychain, `basic_text` (Linux without a keyring: on disk only
   * obfuscated, so kept for the session unless the user opts in) or `none` (memory only: web mode, CLI).
   */
  secretStorage: z.object({ kind: z.enum(['keychain', 'basic_text', 'none']), keepWithoutKeyring: z.boolean() }),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

export const settingsCalls = {
  'settings.get': call({ input: z.object({}).strict(), output: settingsViewSchema }),
  'settings.update': call({ input: settingsPatchSchema, output: settingsViewSchema }),
  'secrets.set': call({
    input: z.object({ name: secretNameSchema, value: z.string().trim().min(8, 'looks too short').max(4096) }).strict(),
    output: settingsViewSchema,
  }),
  'secrets.clear': call({ input: z.object({ name: secretNameSchema }).strict(), output: settingsViewSchema }),
  /** Linux without a keyring: keep secrets on disk anyway (obfuscated, not encrypted), or for the session only. */
  'secrets.keepWithoutKeyring': call({ input: z.object({ keep: z.boolean() }).strict(), output: settingsViewSchema }),
  /** Asks the user in a main-process dialog whether this endpoint's current host may receive its key. */
  'keys.approve': call({ input: z.object({ setting: endpointSettingSchema }).strict(), output: settingsViewSchema }),
};
