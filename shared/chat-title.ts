/** The title a conversation has until its first message says what it is about. */
export const DEFAULT_CHAT_TITLE = 'New chat';

const MAX_WORDS = 6;
const MAX_CHARS = 60;

/** What a message opens with that says nothing about its subject: greetings, politeness, "can you", "I want to". */
const FILLER = new RegExp(
  '^(?:' +
    [
      'h(?:i|ello|ey|iya|owdy)(?: there)?',
      'good (?:morning|afternoon|evening|day)',
      'greetings',
      'yo',
      'dear \\w+',
      'thanks?(?: you)?(?: in advance)?',
      'ok(?:ay)?',
      'so',
      'well',
      'um+',
      'quick question',
      'please',
      'pls',
      'kindly',
      '(?:can|could|would|will|may) (?:you|u)(?: please)?(?: help me)?',
      'i (?:want|need|would like|wanna|was wondering if you could|wonder if you could)(?: you)? to',
      "i(?:['’]d| would) like(?: you)? to",
      "i(?:['’]d| would) like",
      'i want',
      'i need',
      'help me(?: to)?',
      'tell me',
    ].join('|') +
    ')(?=$|[\\s,.:;!?-])[\\s,.:;!?-]*',
  'i',
);

/**
 * Words a phrase goes on after: a title cut short does not end on one ("Tell me a story about a" says less than
 * "A story about a dragon" and reads as broken).
 */
const DANGLING = new Set(
  (
    'a an the of to for by with about from into onto in on at as than and or but nor so that which who whom whose ' +
    'what when where how why if is are was were be been being my your our their his her its this these those me ' +
    'very more most some any each every no not'
  ).split(' '),
);

/** Markdown and links down to their words: fences and URLs go, link and emphasis text stays. */
function plainText(text: string): string {
  return text
    .replace(/(```|~~~)[\s\S]*?(?:\1|$)/g, '\n') // code blocks, an unclosed one to the end
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ') // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links keep their text
    .replace(/<?(?:https?:\/\/|www\.)[^\s>]+>?/gi, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d+[.)][ \t]+)/gm, '') // headings, quotes, list markers
    .replace(/(^|[\s(])(?:\*\*|__|\*|_|~~)+|(?:\*\*|__|\*|_|~~)+(?=$|[\s).,!?;:])/gm, '$1');
}

/** The message's sentences, line by line: "Hi! Can you explain X?" → "Hi!", "Can you explain X?". */
const sentences = (text: string): string[] =>
  text
    .split(/\n+/)
    .flatMap((line) => line.match(/(?:[^.!?]|[.!?](?![\s.!?]|$))+(?:[.!?]+|$)/g) ?? [])
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter(Boolean);

function dropFiller(sentence: string): string {
  let s = sentence;
  for (let before = ''; before !== s;) {
    before = s;
    s = s.replace(FILLER, '').trim();
  }
  return s.replace(/[\s,;:]*\bplease\b[\s.!?]*$/i, (m) => (m.includes('?') ? '?' : '')).trim();
}

/**
 * A conversation's title from its first message: the first sentence that says something, without greetings and
 * filler, markdown, code or URLs, at most ~6 words cut at a word boundary, its first letter capitalised. "New chat"
 * when nothing is left (a bare "hi": main then names the conversation from the next message).
 */
export function chatTitle(text: string): string {
  for (const sentence of sentences(plainText(text))) {
    const rest = dropFiller(sentence);
    const words = rest.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w));
    if (!words.length) continue;
    const kept = words.slice(0, MAX_WORDS);
    while (kept.length > 1 && kept.join(' ').length > MAX_CHARS) kept.pop();
    if (kept.length < words.length)
      while (
        kept.length > 1 &&
        DANGLING.has(
          kept
            .at(-1)!
            .toLowerCase()
            .replace(/[^\p{L}]/gu, ''),
        )
      )
        kept.pop();
    // A question asked as it is keeps its "?"; "Can you explain X?" becomes "Explain X", without one.
    const whole = kept.length === words.length && rest === sentence && rest.endsWith('?');
    let title = kept.join(' ').slice(0, MAX_CHARS);
    title = title.replace(/[\s,.:;!?…\-–—'"“”‘’)(]+$/u, '') + (whole ? '?' : '');
    title = title.replace(/^['"“‘(]+/u, '');
    if (!title.replace(/\?$/, '')) continue;
    return title.replace(/^\p{Ll}/u, (c) => c.toUpperCase());
  }
  return DEFAULT_CHAT_TITLE;
}
