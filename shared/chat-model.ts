import type { ChatBackend } from './contract/chat-conversation';
import type { LocalModel } from './contract/local-models';
import type { SettingsView } from './contract/settings';

/**
 * Which model ids fit which engine. Ollama takes its own names (`llama3.2:1b`, `hf.co/owner/name:Q4_K_M`); the HF
 * router takes a Hub repo id, `owner/name`, with no host and no tag. A GGUF repo behind an `hf.co/…` tag is not served
 * by the router's providers, so such a tag is not turned into a router id: the model is left to be chosen.
 */
const HUB_REPO_ID = /^[\w.-]+\/[\w.-]+$/;

/** Whether `model` reads as a Hub repo id (`owner/name`), the kind the HF router takes. */
export const isHubRepoId = (model: string): boolean => HUB_REPO_ID.test(model);

/** A local model's id, as the built-in engine names GGUFs on disk: `<org>/<name>/<file>.gguf` or an absolute path. */
const LOCAL_REPO_FILE = /^[\w.-]+\/[\w.-]+\/(?!.*\.\.)[^\0\\]+\.gguf$/i;
const ABSOLUTE_GGUF = /^(\/|[A-Za-z]:[\\/]|\\\\)[^\0]*\.gguf$/i;

/** Whether a local model writes text (chat, completions): an embedding model or a reranker does not. */
export const isTextModel = (m: Pick<LocalModel, 'embedding' | 'reranker'>): boolean => !m.embedding && !m.reranker;

/** Whether `model` reads as a local model id (main still checks that the file is there and usable). */
export const isLocalModelId = (model: string): boolean => LOCAL_REPO_FILE.test(model) || ABSOLUTE_GGUF.test(model);

/**
 * Why this engine cannot use `model`, or undefined when it can (or none is chosen yet). Ollama and an endpoint take
 * any id their server lists (an endpoint's ids are its own: a file name, `org/name`, an alias).
 */
export function modelMismatch(backend: ChatBackend, model: string): string | undefined {
  if (!model) return undefined;
  if (backend === 'local')
    return isLocalModelId(model)
      ? undefined
      : `“${model}” is not a model on disk: the built-in engine runs a GGUF file, such as Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf. Choose one of your local models, or download one from its model page.`;
  if (backend !== 'provider' || isHubRepoId(model)) return undefined;
  return `“${model}” is not a Hub model id: the HF router needs owner/name, such as meta-llama/Llama-3.1-8B-Instruct (names such as llama3.2:1b or hf.co/…:Q4_K_M are Ollama's).`;
}

/**
 * The model a conversation keeps when its engine changes to `to` (or to another endpoint): the same one if it fits
 * there, else none. An endpoint serves what it lists, which no other engine's name says: its model is chosen anew.
 * The built-in engine keeps only a local model id (a GGUF on disk); main checks the file is still there.
 */
export function modelOnSwitch(to: ChatBackend, model: string): string {
  if (to === 'provider') return isHubRepoId(model) ? model : '';
  if (to === 'local') return isLocalModelId(model) ? model : '';
  return '';
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
