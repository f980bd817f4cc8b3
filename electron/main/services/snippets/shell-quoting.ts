import type { Snippet } from '@shared/contract/snippets';

const CURL_BODY = "-d '";

/**
 * The library writes a curl body between single quotes without escaping the ones inside it, so a message like
 * "What's new?" ends the quoted string early and the command does not parse. Each `'` inside the body becomes `'\''`
 * (close, escaped quote, reopen): the same JSON reaches the server.
 */
export function quoteCurlBody(s: Snippet): Snippet {
  const start = s.content.indexOf(CURL_BODY);
  if (start < 0) return s;
  const from = start + CURL_BODY.length;
  // The body's closing quote is the one that ends the argument: next comes a line continuation or the end.
  const close = /'(?=[ \t]*(\\\n|$))/g;
  close.lastIndex = from;
  const m = close.exec(s.content);
  if (!m) return s;
  const end = m.index;
  const body = s.content.slice(from, end);
  if (!body.includes("'")) return s;
  return {
    ...s,
    content: s.content.slice(0, from) + body.replaceAll("'", "'\\''") + s.content.slice(end),
    note: "Apostrophes in the request body are written as '\\'' so the shell keeps the body in one piece.",
  };
}
