import type { ModelData } from '@huggingface/tasks';
import { externalHosts } from '@shared/contract/app';

/** A model every local app accepts, only to learn what their deeplinks look like. */
const probe = {
  id: 'org/model-GGUF',
  tags: ['gguf', 'conversational'],
  inference: '',
  pipeline_tag: 'text-generation',
  library_name: 'gguf',
  gguf: { total: 1, context_length: 4096 },
} as unknown as ModelData;

let deeplinkTargets: { schemes: Set<string>; hosts: Set<string> } | undefined;
let loading: Promise<void> | undefined;

/**
 * Learns the protocols (lmstudio:, jan:…) and https hosts of the local apps' deeplinks from @huggingface/tasks
 * itself. Loaded on first use, not at start-up: until then only the fixed hosts are allowed.
 */
export function loadExternalTargets(): Promise<void> {
  return (loading ??= import('@huggingface/tasks').then(({ LOCAL_APPS }) => {
    const schemes = new Set<string>();
    const hosts = new Set<string>();
    for (const app of Object.values(LOCAL_APPS)) {
      if (!('deeplink' in app)) continue;
      try {
        const url = new URL(String(app.deeplink(probe, 'model-Q4_K_M.gguf')));
        if (url.protocol === 'https:') hosts.add(url.hostname);
        else if (!['http:', 'file:', 'javascript:', 'data:'].includes(url.protocol)) schemes.add(url.protocol);
      } catch {
        // An app whose deeplink does not build for the probe simply adds nothing.
      }
    }
    deeplinkTargets = { schemes, hosts };
  }));
}

/**
 * What may leave the app for the system: https links to known hosts (or their subdomains), and the local apps'
 * deeplinks ("Open in LM Studio"), which the system hands to the installed app (once loadExternalTargets is done).
 */
export function isAllowedExternal(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const apps = deeplinkTargets ?? { schemes: new Set<string>(), hosts: new Set<string>() };
  if (apps.schemes.has(url.protocol)) return true;
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return apps.hosts.has(host) || externalHosts.some((h) => host === h || host.endsWith(`.${h}`));
}
