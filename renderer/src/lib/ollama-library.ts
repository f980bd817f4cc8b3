/** Ollama's installer page, offered wherever Ollama is found not running. */
export const OLLAMA_DOWNLOAD = 'https://ollama.com/download';

/** A name in Ollama's library that HubDesk suggests, with what a person weighs before pulling it. */
export interface LibraryModel {
  name: string;
  note: string;
  /** Small enough for most machines: offered when no model is pulled yet. */
  starter?: boolean;
}

/** Well-known names of the Ollama library (ollama.com/library), their download sizes as Ollama lists them. */
export const ollamaLibrary: readonly LibraryModel[] = [
  { name: 'llama3.2', note: 'Meta · 3B · 2.0 GB', starter: true },
  { name: 'qwen3:1.7b', note: 'Qwen · thinks · 1.4 GB', starter: true },
  { name: 'gemma3:1b', note: 'Google · 1B · 815 MB', starter: true },
  { name: 'llama3.2:1b', note: 'Meta · 1B · 1.3 GB' },
  { name: 'llama3.1:8b', note: 'Meta · 8B · 4.9 GB' },
  { name: 'qwen3:4b', note: 'Qwen · thinks · 2.5 GB' },
  { name: 'qwen3:8b', note: 'Qwen · thinks · 5.2 GB' },
  { name: 'qwen2.5-coder:7b', note: 'Qwen · code · 4.7 GB' },
  { name: 'gemma3:4b', note: 'Google · sees images · 3.3 GB' },
  { name: 'gemma3:12b', note: 'Google · sees images · 8.1 GB' },
  { name: 'phi4-mini', note: 'Microsoft · 3.8B · 2.5 GB' },
  { name: 'phi4', note: 'Microsoft · 14B · 9.1 GB' },
  { name: 'mistral', note: 'Mistral · 7B · 4.1 GB' },
  { name: 'deepseek-r1:1.5b', note: 'DeepSeek · thinks · 1.1 GB' },
  { name: 'deepseek-r1:8b', note: 'DeepSeek · thinks · 5.2 GB' },
  { name: 'gpt-oss:20b', note: 'OpenAI · thinks · 14 GB' },
  { name: 'smollm2:1.7b', note: 'Hugging Face · 1.7B · 1.8 GB' },
  { name: 'granite3.3:2b', note: 'IBM · 2B · 1.5 GB' },
  { name: 'llava', note: 'sees images · 7B · 4.7 GB' },
  { name: 'nomic-embed-text', note: 'embeddings · 274 MB' },
  { name: 'mxbai-embed-large', note: 'embeddings · 670 MB' },
  { name: 'all-minilm', note: 'embeddings · 46 MB' },
];

/** The library names matching what was typed (by name or note), at most `limit`; all of the first ones when empty. */
export function matchLibrary(text: string, limit = 8): LibraryModel[] {
  const q = text.trim().toLowerCase();
  if (!q) return ollamaLibrary.slice(0, limit);
  const byName = ollamaLibrary.filter((m) => m.name.includes(q));
  const byNote = ollamaLibrary.filter((m) => !m.name.includes(q) && m.note.toLowerCase().includes(q));
  return [...byName, ...byNote].slice(0, limit);
}

/**
 * What the pull box holds, read as a Hub reference: `hf.co/owner/repo[:quant]` (or huggingface.co/…) gives the
 * repo; otherwise the text to search the Hub's GGUF repos with (without a tag), or nothing when too short.
 */
export function hubReference(text: string): { repo?: string; search?: string } {
  const t = text.trim();
  const ref = /^(?:https?:\/\/)?(?:hf\.co|huggingface\.co)\/([\w.-]+\/[\w.-]+)(?::[\w.-]*)?$/i.exec(t);
  if (ref) return { repo: ref[1] };
  const search = t.replace(/^(?:https?:\/\/)?(?:hf\.co|huggingface\.co)\/?/i, '').split(':')[0];
  return search.length >= 2 ? { search } : {};
}
