/** One part of a Hub repo id: letters, digits, `_`, `.` and `-`, not starting with `.` or `-`. */
const PART = /^[\w][\w.-]{0,95}$/;

/**
 * The Hugging Face repo a model id served by an OpenAI-compatible server names, or undefined when it names none:
 * `org/name`, `org/name:Q4_K_M` (an Ollama/llama.cpp-style quant tag), `hf.co/org/name[:tag]`,
 * `https://huggingface.co/org/name`, or a GGUF file inside a repo (`org/name/file-Q4_K_M.gguf`,
 * `org/name/sub/dir/file.gguf`). A bare file name (`Qwen3-0.6B-Q8_0.gguf`) or a local path (`/models/x`) names none.
 */
export function hubRepoOf(modelId: string): string | undefined {
  let id = modelId.trim();
  if (id.length > 512) return undefined;
  id = id.replace(/^https?:\/\//i, '').replace(/^(hf\.co|huggingface\.co)\//i, '');
  const parts = id.split('/');
  if (parts.length < 2) return undefined;
  const last = parts[parts.length - 1];
  if (parts.length > 2 && !/\.gguf$/i.test(last)) return undefined;
  // The tag belongs to the repo part only when the id is `org/name:tag`.
  const org = parts[0];
  const name = parts.length === 2 ? parts[1].replace(/:[\w.-]+$/, '') : parts[1];
  if (!PART.test(org) || !PART.test(name) || `${org}/${name}`.includes('..')) return undefined;
  return `${org}/${name}`;
}
