import { createHash } from 'node:crypto';
import { z } from 'zod';
import { endpointPresetSchema } from '@shared/contract/endpoints';
import { envVar } from '@shared/environment';
import type { Logger } from '../log';
import { parseEndpoint } from '../net/endpoints';
import type { StoredEndpoint } from './store';

/**
 * HUBDESK_ENDPOINTS: endpoints set outside the page (the web mode, headless machines), as a JSON array of
 * `{"name","baseUrl","preset"?,"apiKeyEnv"?}`; the key is read from the environment variable `apiKeyEnv` names.
 */
const entrySchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    baseUrl: z.string().max(2048),
    preset: endpointPresetSchema.default('other'),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/)
      .optional(),
  })
  .strict();

export function envEndpoints(env: Record<string, string | undefined>, log: Logger): StoredEndpoint[] {
  const raw = env[envVar('HUBDESK_ENDPOINTS').name]?.trim();
  if (!raw) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    log.warn('HUBDESK_ENDPOINTS is not JSON; ignored (expected [{"name":"…","baseUrl":"http://…"}])');
    return [];
  }
  const out: StoredEndpoint[] = [];
  for (const [i, item] of (Array.isArray(list) ? list : [list]).slice(0, 32).entries()) {
    const parsed = entrySchema.safeParse(item);
    let href: string | undefined;
    let origin = '';
    try {
      if (parsed.success) ({ href, origin } = parseEndpoint(parsed.data.baseUrl, 'HUBDESK_ENDPOINTS'));
    } catch {
      href = undefined;
    }
    if (!parsed.success || !href) {
      log.warn('HUBDESK_ENDPOINTS entry ignored', { index: i });
      continue;
    }
    const { name, preset, apiKeyEnv } = parsed.data;
    // Stable across restarts, so a conversation on an env endpoint finds it again.
    const id = `e_env${createHash('sha256').update(`${name}\n${href}`).digest('hex').slice(0, 12)}`;
    if (out.some((e) => e.id === id)) continue;
    const value = apiKeyEnv ? env[apiKeyEnv]?.trim() : undefined;
    out.push({ id, name, preset, baseUrl: href, ...(value ? { key: { value, origin } } : {}) });
  }
  return out;
}
