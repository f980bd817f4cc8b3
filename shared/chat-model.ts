import type { ChatBackend } from './contract/chat';
import type { SettingsView } from './contract/settings';

/**
 * Which model ids fit which engine. Ollama takes its own names (`llama3.2:1b`, `hf.co/owner/name:Q4_K_M`); the HF
 * router takes a Hub repo id, `owner/name`, with no host and no tag. A GGUF repo behind an `hf.co/…` tag is not served
 * by the router's providers, so such a tag is not turned into a router id: the model is left to be chosen.
 */
const HUB_REPO_ID = /^[\w.-]+\/[\w.-]+$/;

/** Whether `model` reads as a Hub repo id (`owner/name`), the kind the HF router takes. */
export const isHubRepoId = (model: string): boolean => HUB_REPO_ID.test(model);

/**
 * Why this engine cannot use `model`, or undefined when it can (or none is chosen yet). Ollama and an endpoint take
 * any id their server lists (an endpoint's ids are its own: a file name, `org/name`, an alias).
 */
export function modelMismatch(backend: ChatBackend, model: string): string | undefined {
  if (backend !== 'provider' || !model || isHubRepoId(model)) return undefined;
  return `“${model}” is not a Hub model id: the HF router needs owner/name, such as meta-llama/Llama-3.1-8B-Instruct (names such as llama3.2:1b or hf.co/…:Q4_K_M are Ollama's).`;
}

/**
 * The model a conversation keeps when its engine changes to `to` (or to another endpoint): the same one if it fits
 * there, else none. An endpoint serves what it lists, which no other engine's name says: its model is chosen anew.
 */
export function modelOnSwitch(to: ChatBackend, model: string): string {
  return to === 'provider' && isHubRepoId(model) ? model : '';
}

/** Whether the HF router will get the Hugging Face token: `undefined` while the settings are not known. */
export type RouterKey = 'ready' | 'missing' | 'withheld';

export function routerKey(view: SettingsView | undefined): RouterKey | undefined {
  if (!view) return undefined;
  if (!view.secrets.find((s) => s.name === 'hfToken')?.set) return 'missing';
  return view.bindings.find((b) => b.setting === 'routerUrl')?.bound === false ? 'withheld' : 'ready';
}

/** What to do when the router would get no token (main refuses a reply with it; the chat page says it first). */
export function routerKeyProblem(key: Exclude<RouterKey, 'ready'>, routerUrl: string): string {
  return key === 'missing'
    ? 'Set a Hugging Face token in Settings → Secrets to chat with hosted models.'
    : `Your Hugging Face token is not sent to ${routerUrl}, the router set in Settings: approve that host under Settings → Where your keys go, or set the router back to https://router.huggingface.co.`;
}
