/**
 * Where `ollama push <name>` publishes, read from the name as Ollama parses it: [host/][namespace/]model[:tag], with
 * the host defaulting to Ollama's registry (ollama.com), the namespace to `library` and the tag to `latest`.
 * Pure, so the confirmation on the Local models page and the check in main say the same thing.
 */

const OLLAMA_REGISTRY = 'registry.ollama.ai';

export interface PushTarget {
  /** Where it goes, as a person knows it: ollama.com for Ollama's registry, else the registry's host. */
  site: string;
  /** `<namespace>/<model>:<tag>`: what others pull it as from that site. */
  ref: string;
}

/** The target of a push, or why HubDesk refuses to push that name (before any request). */
export function pushTarget(name: string): { target: PushTarget } | { refusal: string } {
  let rest = name.trim();
  let tag = 'latest';
  const colon = rest.lastIndexOf(':');
  // A colon before the last slash is a registry port (localhost:5000/me/model), not a tag.
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const parts = rest.split('/');
  const model = parts.pop()!;
  const namespace = parts.pop();
  const host = parts.join('/') || OLLAMA_REGISTRY;
  const onOllama = host === OLLAMA_REGISTRY || host === 'ollama.com';
  // `library` on ollama.com is Ollama's own namespace: a name without a namespace lands there.
  if (!namespace || (onOllama && namespace === 'library'))
    return {
      refusal:
        `${name} has no namespace of yours, so Ollama would push it to ollama.com/library, where only Ollama publishes. ` +
        `Copy it as <your-ollama-user>/${model}:${tag} first (Copy / rename), then push the copy.`,
    };
  // Hugging Face serves GGUF repos to `ollama pull` but takes no pushes.
  if (host === 'hf.co' || host === 'huggingface.co')
    return {
      refusal:
        `${name} comes from Hugging Face, which Ollama can pull from but not push to. ` +
        `Copy it as <your-ollama-user>/${model}:${tag} first (Copy / rename), then push the copy.`,
    };
  return { target: { site: onOllama ? 'ollama.com' : host, ref: `${namespace}/${model}:${tag}` } };
}
