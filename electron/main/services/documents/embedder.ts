import type { Embedder } from '@shared/contract/documents';
import { AppError, toAppError } from '@shared/errors';
import type { Engines } from '../engines/registry';
import type { EngineKind } from '../engines/types';
import type { ReplyAction } from '@shared/reply-action';

/** Turns texts into vectors with the chosen embedding model; errors say what to do about it. */
export type EmbedFn = (e: Embedder, texts: string[]) => Promise<number[][]>;

/** The embedder over the engines that make vectors (`EngineKind.embed`: Ollama's and the built-in engine's). */
export function createEmbedder(engines: Pick<Engines, 'kind'>): EmbedFn {
  return async (e, texts) => {
    const kind = engines.kind(e.backend);
    try {
      if (!kind.embed) throw new AppError('invalid_input', `${e.model} cannot make embeddings here.`);
      const embeddings = await kind.embed(e.model, texts);
      if (embeddings.length !== texts.length || embeddings.some((v) => v.length === 0))
        throw new AppError(
          'upstream',
          `${e.model} did not return an embedding for every passage: is it an embedding model? Choose one such as nomic-embed-text.`,
        );
      return embeddings;
    } catch (err) {
      throw embedError(e, kind, err);
    }
  };
}

/** The one message an embedder failure stops indexing with (the page offers the pull where there is one). */
function embedError(e: Embedder, kind: EngineKind, err: unknown): AppError {
  const a = toAppError(err);
  if (a.code === 'aborted') return a;
  const detail = { original: a.message, embedder: e };
  const own = kind.embedError?.(a, e.model);
  if (own)
    return new AppError(own.code, own.message, {
      details: { ...detail, ...(own.action ? { action: own.action } : {}) },
    });
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
