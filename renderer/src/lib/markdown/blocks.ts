import { Lexer, type MarkedOptions, type Token } from 'marked';

/** One top-level Markdown block: its source text and where it starts in the message. */
export interface Block {
  raw: string;
  start: number;
  /**
   * Its tokens, as lexing it alone gives them, so rendering does not lex it again. Absent when the text lexed with
   * it defines link references: a block's links could then resolve differently on their own.
   */
  tokens?: Token[];
}

export interface Split {
  text: string;
  blocks: Block[];
}

const options: MarkedOptions = { gfm: true };

/** Top-level blocks of `text` as marked's lexer sees them (blank lines are folded into the block before them). */
function lex(text: string, offset: number): Block[] {
  const out: Block[] = [];
  let at = offset;
  const tokens = Lexer.lex(text, options);
  const keep = Object.keys(tokens.links).length === 0;
  for (const token of tokens) {
    const last = out.at(-1);
    if (token.type === 'space' && last) {
      last.raw += token.raw;
      last.tokens?.push(token);
    } else out.push(keep ? { raw: token.raw, start: at, tokens: [token] } : { raw: token.raw, start: at });
    at += token.raw.length;
  }
  return out;
}

/**
 * Splits a message into top-level blocks. When the text only grew since `prev`, just the tail is lexed again: from
 * the start of the second-to-last block, since new text can change only the block it continues (a list item, a
 * code fence) and the one before it (a table header that gets its separator row, a setext heading underline).
 */
export function splitBlocks(text: string, prev?: Split): Split {
  if (!prev || prev.blocks.length < 3 || !text.startsWith(prev.text)) return { text, blocks: lex(text, 0) };
  const keep = prev.blocks.length - 2;
  const from = prev.blocks[keep].start;
  return { text, blocks: [...prev.blocks.slice(0, keep), ...lex(text.slice(from), from)] };
}
