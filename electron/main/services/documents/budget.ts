/**
 * The chunks that go to the model: in rank order, each whole, as many as fit `maxTokens` together. A chunk too big
 * for what is left is passed over (never cut) and smaller ones after it may still fit.
 */
export function budget<T extends { tokens: number }>(ranked: T[], maxTokens: number): T[] {
  const out: T[] = [];
  let left = maxTokens;
  for (const c of ranked) {
    if (c.tokens > left) continue;
    out.push(c);
    left -= c.tokens;
  }
  return out;
}
