/**
 * The one token estimate used for chunking and budgets. It is an estimate, not a tokenizer: a CJK character
 * (Han, kana, Hangul, their punctuation and full-width forms) counts 1 token, other characters 1/4 each, and a run
 * of whitespace counts as one character. Real tokenizers land near it for English prose and CJK text; code and
 * numbers run somewhat higher, so budgets built on it should keep a margin.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(tokenCost(text, 0, text.length));
}

/** The estimate for `text.slice(from, to)`, unrounded. */
function tokenCost(text: string, from: number, to: number): number {
  let cost = 0;
  let inSpace = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (!inSpace) cost += 0.25;
      inSpace = true;
      continue;
    }
    inSpace = false;
    if (c >= 0xd800 && c <= 0xdbff) {
      // An astral character (CJK extension, emoji): one token, its two code units counted once.
      cost += 1;
      i++;
    } else cost += isCjk(c) ? 1 : 0.25;
  }
  return cost;
}

/**
 * Where a slice of `text` starting at `from` reaches `tokens` by the estimate: the largest end ≤ `to` whose slice
 * costs no more, moved back to a whitespace when one lies in its last quarter (so words stay whole), and always
 * at least one character past `from`.
 */
export function sliceEndForTokens(text: string, from: number, to: number, tokens: number): number {
  let cost = 0;
  let i = from;
  let inSpace = false;
  while (i < to) {
    const c = text.charCodeAt(i);
    const astral = c >= 0xd800 && c <= 0xdbff;
    const step = isSpace(c) ? (inSpace ? 0 : 0.25) : astral || isCjk(c) ? 1 : 0.25;
    if (cost + step > tokens) break;
    cost += step;
    inSpace = isSpace(c);
    i += astral ? 2 : 1;
  }
  if (i >= to) return to;
  if (i === from) return Math.min(to, from + (text.charCodeAt(from) >= 0xd800 ? 2 : 1));
  const floor = from + Math.floor(((i - from) * 3) / 4);
  for (let j = i; j > floor; j--) if (isSpace(text.charCodeAt(j - 1))) return j;
  return i;
}

/** Where a slice ending at `to` and starting no earlier than `from` costs at most `tokens`: its earliest start. */
export function sliceStartForTokens(text: string, from: number, to: number, tokens: number): number {
  let cost = 0;
  let i = to;
  let inSpace = false;
  while (i > from) {
    const c = text.charCodeAt(i - 1);
    const astral = c >= 0xdc00 && c <= 0xdfff && i - 2 >= from;
    const step = isSpace(c) ? (inSpace ? 0 : 0.25) : astral || isCjk(c) ? 1 : 0.25;
    if (cost + step > tokens) break;
    cost += step;
    inSpace = isSpace(c);
    i -= astral ? 2 : 1;
  }
  return i;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000 || c === 0xfeff;
}

function isCjk(c: number): boolean {
  return (
    (c >= 0x3001 && c <= 0x30ff) || // CJK punctuation, hiragana, katakana
    (c >= 0x3400 && c <= 0x4dbf) || // Han extension A
    (c >= 0x4e00 && c <= 0x9fff) || // Han
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0xf900 && c <= 0xfaff) || // Han compatibility
    (c >= 0xff00 && c <= 0xffef) // full-width forms
  );
}
