/** How often, at most, a streaming reply is spoken: often enough to follow, rarely enough not to interrupt. */
export const ANNOUNCE_EVERY_MS = 1500;

/** Markdown read aloud: code blocks named, not spelled out; emphasis, heading and quote marks dropped. */
export function speakable(md: string): string {
  return md
    .replace(/```[\s\S]*?(```|$)/g, ' (code block) ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>|~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The part of `text` after `from` up to the end of its last finished sentence (., !, ? or : followed by a space,
 * or a paragraph break), and where it ends; nothing while no sentence has finished. An open code block waits.
 */
export function finishedSentences(text: string, from: number): { say: string; to: number } {
  const rest = text.slice(from);
  const fences = (text.slice(0, from).match(/```/g)?.length ?? 0) + (rest.match(/```/g)?.length ?? 0);
  let end = -1;
  for (const m of rest.matchAll(/[.!?:](?=\s)|\n\n/g)) end = m.index + m[0].length;
  if (end < 0) return { say: '', to: from };
  // Stop before a code block still being written (its text is not read until it is closed).
  if (fences % 2 === 1) {
    const open = rest.lastIndexOf('```');
    if (open >= 0 && open < end) end = open;
  }
  return { say: speakable(rest.slice(0, end)), to: from + end };
}
