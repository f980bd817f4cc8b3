import { AppError } from '@shared/errors';
import type { HostModel } from '../host/protocol';
import type { OpenModel } from './open-model';

/**
 * One relevance score (0–1) per document, in their order. A document that does not fit the context with the query
 * is refused, never cut; the message names the longest one and the tokens it needs.
 */
export async function rankDocuments(
  e: OpenModel,
  model: HostModel,
  query: string,
  documents: string[],
): Promise<{ scores: number[]; tokens: number }> {
  if (!e.ranking) throw new AppError('invalid_input', `${model.name} is not a reranker.`);
  const ranking = e.ranking;
  const lengths = documents.map((d) => ranking.calculateInputLength(query, d));
  const longest = lengths.reduce((at, n, i) => (n > lengths[at] ? i : at), 0);
  if (documents.length && lengths[longest] >= ranking.contextSize)
    throw new AppError(
      'invalid_input',
      `Document ${longest} and the query are ${lengths[longest]} tokens, more than the ${ranking.contextSize} tokens of ${model.name}'s context: split it into shorter pieces.`,
      {
        details: {
          wireCode: 'exceed_context_size_error',
          index: longest,
          tokens: lengths[longest],
          contextSize: ranking.contextSize,
        },
      },
    );
  return { scores: await ranking.rankAll(query, documents), tokens: lengths.reduce((a, n) => a + n, 0) };
}
