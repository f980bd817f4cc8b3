import type { Embedder } from '@shared/contract/documents';
import type { LocalModel as OllamaModel } from '@shared/contract/ollama';
import type { LocalModels } from '@shared/contract/local-models';
import { AppError, toAppError } from '@shared/errors';
import { isOllamaEmbedder } from '@shared/ollama-embedder';
import { noEmbedderError } from './embedder';

/** Embedding models known to serve document search well, best first, as Ollama's and GGUF files' names spell them. */
const KNOWN = [
  'nomic-embed-text',
  'mxbai-embed-large',
  'bge-m3',
  'snowflake-arctic-embed',
  'bge-large',
  'bge-base',
  'all-minilm',
  'bge-small',
];

const rank = (e: Embedder) => {
  const i = KNOWN.findIndex((k) => e.model.toLowerCase().includes(k));
  return i < 0 ? KNOWN.length : i;
};

/**
 * The embedding model indexing takes when the person has not chosen one: the only one installed, else the best
 * known one (Ollama's before the built-in engine's on a tie, as listed). Several unknown ones: the person chooses.
 */
export function chooseEmbedder(installed: readonly Embedder[]): Embedder {
  if (installed.length === 1) return installed[0];
  const best = installed.reduce<Embedder | undefined>((b, e) => (!b || rank(e) < rank(b) ? e : b), undefined);
  if (best && rank(best) < KNOWN.length) return best;
  if (!installed.length) throw noEmbedderError();
  throw new AppError(
    'invalid_input',
    `Indexing waits for you to choose the embedding model: ${installed.length} are installed (${installed
      .slice(0, 3)
      .map((e) => e.model)
      .join(', ')}${installed.length > 3 ? '…' : ''}).`,
    { details: { reason: 'choose' } },
  );
}

export interface InstalledSources {
  ollama: () => Promise<{ models: OllamaModel[] }>;
  local: () => Promise<LocalModels>;
}

/**
 * The embedding models installed: Ollama's and the built-in engine's GGUFs. Ollama unreachable with nothing
 * built-in to fall back on is said as such (start it, then Retry), not as "no model".
 */
export async function installedEmbedders(src: InstalledSources): Promise<Embedder[]> {
  const [ollama, local] = await Promise.allSettled([src.ollama(), src.local()]);
  const out: Embedder[] = [];
  if (ollama.status === 'fulfilled')
    for (const m of ollama.value.models) if (isOllamaEmbedder(m)) out.push({ backend: 'ollama', model: m.name });
  if (local.status === 'fulfilled')
    for (const m of local.value.models) if (m.embedding && !m.problem) out.push({ backend: 'local', model: m.id });
  if (!out.length && ollama.status === 'rejected') {
    const why = toAppError(ollama.reason);
    throw new AppError(
      why.code === 'timeout' ? 'timeout' : 'unavailable',
      `Indexing waits for Ollama, which makes the embeddings: ${why.message} Start Ollama ("ollama serve"), then Retry.`,
      { details: { action: { kind: 'retry' } } },
    );
  }
  return out;
}
