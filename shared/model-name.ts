/**
 * Ollama model names: [host/][namespace/]model[:tag], as the server parses them. Zod-free so the
 * renderer can check a name as the user types without pulling the schemas into its bundle.
 */
export const MODEL_NAME_RE =
  /^(?:[A-Za-z0-9][A-Za-z0-9._-]*(?::\d+)?\/)?(?:[A-Za-z0-9_][A-Za-z0-9._-]{0,79}\/)*[A-Za-z0-9_][A-Za-z0-9._-]{0,79}(?::[A-Za-z0-9_][A-Za-z0-9._-]{0,79})?$/;

export const MODEL_NAME_MAX = 350;
export const MODEL_NAME_REQUIRED = 'a model name is required';
export const MODEL_NAME_HINT =
  'not a valid Ollama model name (expected name[:tag], e.g. llama3.2 or hf.co/owner/repo:Q4_K_M)';

/** The problem with a model name, or undefined when it is valid. */
export function modelNameProblem(raw: string): string | undefined {
  const name = raw.trim();
  if (!name) return MODEL_NAME_REQUIRED;
  if (name.length > MODEL_NAME_MAX) return `at most ${MODEL_NAME_MAX} characters`;
  return MODEL_NAME_RE.test(name) ? undefined : MODEL_NAME_HINT;
}
