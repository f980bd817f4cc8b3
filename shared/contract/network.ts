import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { call } from './define';

/** How a request goes: direct (and why), or through a proxy (its password hidden) and where that proxy was set. */
const routeSchema = z.discriminatedUnion('via', [
  z.object({ via: z.literal('direct'), why: z.enum(['loopback', 'bypass', 'no-proxy']) }),
  z.object({ via: z.literal('proxy'), proxy: z.string(), source: z.enum(['settings', 'environment', 'system']) }),
]);
export type NetworkRoute = z.infer<typeof routeSchema>;

const fileTrustSchema = z.object({
  path: z.string(),
  count: z.number().int().optional(),
  error: z.string().optional(),
});

/** Settings → Network: the proxy in use and where it came from, the bypass lists, and what TLS trusts. */
const networkStatusSchema = z.object({
  /** The route a request to the Hub takes now, or why none can be chosen (a malformed proxy address). */
  hub: z.object({ url: z.string(), route: routeSchema.optional(), error: z.string().optional() }),
  /** The manual proxy (Settings), shown with its password hidden. */
  manual: z.string().optional(),
  /** The environment's proxy variables, as set (passwords hidden). */
  environment: z.array(z.object({ name: z.string(), value: z.string() })),
  /** Desktop: the system's proxy settings (PAC included) apply when neither Settings nor the environment set one. */
  system: z.boolean(),
  trust: z.object({
    /** Certificates read from the OS store; absent where this Node cannot read it (Node < 22.15). */
    system: z.number().int().optional(),
    node: z.string(),
    envFile: fileTrustSchema.optional(),
    settingsFile: fileTrustSchema.optional(),
  }),
});
export type NetworkStatus = z.infer<typeof networkStatusSchema>;

/** "Test connection": one request, how it went, and what answered. */
const connectionTestSchema = z.object({
  url: z.string(),
  route: routeSchema.optional(),
  ok: z.boolean(),
  status: z.number().int().optional(),
  ms: z.number(),
  /** The certificate that answered (https): who issued it, for whom, until when. */
  tls: z.object({ issuer: z.string(), subject: z.string(), validTo: z.string() }).optional(),
  error: appErrorSchema.optional(),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

export const networkCalls = {
  'network.status': call({ input: z.object({}).strict(), output: networkStatusSchema }),
  /** Without a URL: the Hub endpoint in Settings. */
  'network.test': call({
    input: z
      .object({
        url: z
          .string()
          .trim()
          .max(2048)
          .refine(
            (s) => /^https?:\/\/[^\s/?#]+/i.test(s) && URL.canParse(s),
            'must start with http:// or https:// and a host',
          )
          .optional(),
      })
      .strict(),
    output: connectionTestSchema,
  }),
};
