/**
 * The relevance floor of retrieval. Fused ranks always give a "best" passage, even for a question the documents
 * know nothing of; these rules keep only passages with evidence: the question's words in them about as much as in
 * the best match (BM25: a passage with only "at" and "the" of the question is not one), or a vector clearly nearer
 * the question than the rest. Similarity scales differ by model (nomic-embed-text's unrelated
 * pairs sit near 0.4, the test stand-in's near 0.05), so "clearly nearer" is measured against the pack: the median.
 */

/** The best similarity must lead the median by this much for any passage to count as near by meaning. */
const MIN_LEAD = 0.06;
/** A passage counts as near when it is at least this share of the way from the median to the best. */
const KEEP_SHARE = 0.5;
/** A passage found by words counts when its BM25 score is at least this share of the best one's. */
const TEXT_SHARE = 0.5;
/** Below this many measured passages there is no pack to compare with: all of them count. */
const MIN_PACK = 5;

interface Scored {
  textScore?: number;
  similarity?: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The hits worth sending, in their order: found by the question's words, or near it by meaning. */
export function aboveFloor<T extends Scored>(hits: readonly T[]): T[] {
  const sims = hits.flatMap((h) => (h.similarity === undefined ? [] : [h.similarity]));
  let near = (_: number) => true;
  if (sims.length >= MIN_PACK) {
    const best = Math.max(...sims);
    const mid = median(sims);
    near = best - mid < MIN_LEAD ? () => false : (s) => s >= mid + (best - mid) * KEEP_SHARE;
  }
  const bestText = Math.max(0, ...hits.map((h) => h.textScore ?? 0));
  const worded = (t: number) => t > 0 && t >= bestText * TEXT_SHARE;
  return hits.filter(
    (h) => (h.textScore !== undefined && worded(h.textScore)) || (h.similarity !== undefined && near(h.similarity)),
  );
}
