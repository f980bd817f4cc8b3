import { MODEL_LIBRARIES_UI_ELEMENTS, type ModelData } from '@huggingface/tasks';
import type { SnippetSection } from '@shared/contract/snippets';
import type { ModelRecord } from '@shared/model-record';
import { toModelData } from './model-data';

const shellLine =
  /^(pip3?|npm|npx|git|curl|wget|brew|docker|hf|huggingface-cli|python3? -m|uv|conda|ollama|cortiq|mlagents-[\w-]+)\b/;

/** Library snippets carry no language: classify by content (shell commands, JavaScript, otherwise Python). */
function guessLanguage(library: string, content: string): string {
  if (library === 'transformers.js') return 'js';
  const lines = content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (lines.length > 0 && lines.every((l) => shellLine.test(l) || l.endsWith('\\') || l.startsWith('--'))) return 'sh';
  return 'python';
}

export function librarySection(model: ModelRecord): SnippetSection {
  const lib = model.library_name;
  if (!lib) return { kind: 'library', snippets: [], notice: 'This model names no library.' };
  const ui = (MODEL_LIBRARIES_UI_ELEMENTS as Record<string, { snippets?: (m: ModelData) => string[] }>)[lib];
  if (!ui?.snippets) return { kind: 'library', snippets: [], notice: `No library snippets for "${lib}".` };
  try {
    const list = ui.snippets(toModelData(model)).filter((s) => s.trim() !== '');
    if (list.length === 0) return { kind: 'library', snippets: [], notice: `No library snippets for "${lib}".` };
    return {
      kind: 'library',
      snippets: list.map((content, i) => ({
        kind: 'library',
        language: guessLanguage(lib, content),
        client: list.length > 1 ? `${lib} (${i + 1})` : lib,
        content,
      })),
    };
  } catch (e) {
    return { kind: 'library', snippets: [], error: `${lib}: ${(e as Error).message || String(e)}` };
  }
}
