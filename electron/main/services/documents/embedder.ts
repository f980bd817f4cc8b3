import type { Embedder } from '@shared/contract/documents';
import { AppError, toAppError } from '@shared/errors';
import type { ReplyAction } from '@shared/reply-action';

/** What the embedder needs from the engines: Ollama's `embed` and the built-in engine's. */
export interface EmbedEngines {
  ollama: { embed(input: { model: string; input: string[] }): Promise<{ embeddings: number[][] }> };
  local: { embed(id: string, input: string[]): Promise<{ embeddings: number[][] }> };
}

/** Turns texts into vectors with the chosen embedding model; errors say what to do about it. */
export type EmbedFn = (e: Embedder, texts: string[]) => Promise<number[][]>;

export function createEmbedder(engines: EmbedEngines): EmbedFn {
  return async (e, texts) => {
    try {
      const { embeddings } =
        e.backend === 'ollama'
          ? await engines.ollama.embed({ model: e.model, input: texts })
          : await engines.local.embed(e.model, texts);
      if (embeddings.length !== texts.length || embeddings.some((v) => v.length === 0))
        throw new AppError(
          'upstream',
          `${e.model} did not return an embedding for every passage: is it an embedding model? Choose one such as nomic-embed-text.`,
        );
      return embeddings;
    } catch (err) {
      throw embedError(e, err);
    }
  };
}

/** The one message an embedder failure stops indexing with (the page offers the pull where there is one). */
function embedError(e: Embedder, err: unknown): AppError {
  const a = toAppError(err);
  if (a.code === 'aborted') return a;
  const detail = { original: a.message, embedder: e };
  if (e.backend === 'ollama' && a.status === 404 && /not found/i.test(a.message)) {
    const action: ReplyAction = { kind: 'pull', model: e.model };
    return new AppError(
      'not_found',
      `The embedding model ${e.model} is not on your Ollama server. Pull ${e.model}? (or run "ollama pull ${e.model}")`,
      { details: { ...detail, action } },
    );
  }
  if (e.backend === 'ollama' && a.status === 400 && /does not support embeddings|embed/i.test(a.message))
    return new AppError(
      'invalid_input',
      `${e.model} cannot make embeddings: choose an embedding model such as nomic-embed-text.`,
      {
        details: detail,
      },
    );
  if (e.backend === 'local' && a.code === 'not_found')
    return new AppError(
      'not_found',
      `The embedding model ${e.model} is not among the built-in engine's models: download it in Models, or choose another.`,
      { details: detail },
    );
  // Ollama not running, a timeout…: its own words already say what to do.
  return new AppError(a.code, `Indexing stopped: ${a.message}`, { status: a.status, details: detail });
}

/** Indexing cannot embed before an embedding model is chosen. */
export const noEmbedderError = () =>
  new AppError(
    'invalid_input',
    'Choose an embedding model to finish indexing (for example nomic-embed-text in Ollama: Pull nomic-embed-text?).',
    { details: { action: { kind: 'pull', model: 'nomic-embed-text' } satisfies ReplyAction } },
  );
