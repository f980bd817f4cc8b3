import type { ReplyContext } from '@shared/contract/documents';

const names = (list: readonly string[]) =>
  list.length <= 3 ? list.join(', ') : `${list.slice(0, 3).join(', ')} and ${list.length - 3} more`;

/**
 * How a reply's documents reached the model, said as it happened: whole, retrieved by meaning and words, found by
 * words alone (vectors not ready), or no passage at all. Never "given" when nothing was.
 */
export function sourcesLine(context: ReplyContext): string {
  if (!context.citations.length)
    return context.mode === 'whole'
      ? 'No document could be given to the model'
      : 'No passage matched this question closely enough, so none was given to the model';
  if (context.mode === 'whole') return 'Whole documents were given to the model';
  const words = context.wordsOnly ?? [];
  if (!words.length) return 'Retrieved passages were given to the model';
  const cited = new Set(context.citations.map((c) => c.name));
  const all = context.citations.every((c) => words.includes(c.name));
  const shown = words.filter((w) => cited.has(w));
  return all
    ? `Passages found by words alone were given to the model (search by meaning was not ready for ${names(shown.length ? shown : words)})`
    : `Retrieved passages were given to the model; those of ${names(shown.length ? shown : words)} were found by words alone (search by meaning was not ready)`;
}
