import { AppError } from '@shared/errors';
import type { HostModel } from '../host/protocol';
import { loadError } from './load-errors';
import type { OpenModel } from './open-model';

/** One vector per text, from the model's embedding context (opened on first use for a chat model). */
export async function embedTexts(e: OpenModel, model: HostModel, texts: string[]): Promise<number[][]> {
  e.embedding ??= e.model.createEmbeddingContext({ contextSize: e.contextSize, threads: e.threads });
  const ctx = await e.embedding.catch((err: unknown) => {
    e.embedding = undefined;
    throw loadError(err, { name: model.name, contextSize: e.contextSize, log: [], stage: 'context' });
  });
  const out: number[][] = [];
  for (const text of texts) {
    try {
      out.push(Array.from((await ctx.getEmbeddingFor(text)).vector));
    } catch (err) {
      throw new AppError(
        'invalid_input',
        `${model.name} could not embed this text (${(err as Error).message}): split it into shorter pieces.`,
      );
    }
  }
  return out;
}
