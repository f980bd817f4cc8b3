import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { ChatSearchResult, ExcerptPart } from '@shared/contract/chat-search';
import type { ChatDb } from './db';
import type { ConversationRow } from './db-queries';

/** Marks FTS5 puts around matched words in excerpts (control characters never typed in a chat). */
const OPEN = '\u0001';
const CLOSE = '\u0002';

/**
 * The search box's text as an FTS5 query: "quoted phrases" stay phrases, words match whole except the one being
 * typed, which matches as a prefix (so results come while typing); all of them required. Returns undefined when nothing searchable is left.
 */
export function toFtsQuery(text: string): string | undefined {
  const parts: string[] = [];
  const re = /"([^"]*)"?|(\S+)/g;
  // Only the word being typed (the last one, with no space after it) matches as a prefix: earlier words are
  // complete, and a prefix of a common word would make FTS5 merge the lists of every word it starts.
  const typing = !/\s$/.test(text);
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const phrase = m[1] !== undefined;
    // Only letters and digits reach FTS5: its own syntax (AND, NEAR, ^, :, *) is never interpreted.
    const words = (m[1] ?? m[2]).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (!words.length) continue;
    const last = re.lastIndex >= text.length && typing && !phrase;
    if (phrase) parts.push(`"${words.join(' ')}"`);
    else
      words.forEach((w, i) =>
        // One letter matches as a whole word: a one-letter prefix would scan most of the index.
        parts.push(last && i === words.length - 1 && w.length > 1 ? `"${w}"*` : `"${w}"`),
      );
  }
  return parts.length ? parts.join(' ') : undefined;
}

/** An FTS5 snippet/highlight as parts, matched words flagged: the renderer shows them without any HTML. */
function toParts(marked: string): ExcerptPart[] {
  const out: ExcerptPart[] = [];
  for (const chunk of marked.split(OPEN)) {
    const end = chunk.indexOf(CLOSE);
    if (end >= 0) {
      out.push({ text: chunk.slice(0, end), hit: true });
      if (end + 1 < chunk.length) out.push({ text: chunk.slice(end + 1) });
    } else if (chunk) out.push({ text: chunk });
  }
  return out;
}

/** Letters and digits compared as FTS5's unicode61 tokenizer does: case and diacritics folded. */
const fold = (w: string) =>
  w
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** The words of a query, folded: each matches a word that starts with it. */
function queryTerms(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(fold);
}

const WORD = /[\p{L}\p{N}]+/gu;
const EXCERPT_WORDS = 14;

/** About 14 words around the first matched word, matched words flagged; "…" where text was left out. */
function excerpt(content: string, terms: string[]): ExcerptPart[] {
  const words = [...content.matchAll(WORD)];
  const isHit = (w: string) => {
    const f = fold(w);
    return terms.some((t) => f.startsWith(t));
  };
  const first = Math.max(
    0,
    words.findIndex((w) => isHit(w[0])),
  );
  const from = Math.max(0, first - 4);
  const to = Math.min(words.length, from + EXCERPT_WORDS);
  const out: ExcerptPart[] = [];
  const push = (text: string, hit = false) => {
    if (!text) return;
    const last = out.at(-1);
    if (last && !!last.hit === hit) last.text += text;
    else out.push(hit ? { text, hit } : { text });
  };
  if (from > 0) push('…');
  let pos = from < words.length ? words[from].index : 0;
  for (let i = from; i < to; i++) {
    const w = words[i];
    push(content.slice(pos, w.index).replace(/\s+/g, ' '));
    push(w[0], isHit(w[0]));
    pos = w.index + w[0].length;
  }
  if (to < words.length) push('…');
  else push(content.slice(pos).replace(/\s+/g, ' '));
  return out;
}

const MAX_CONVERSATIONS = 50;
const HITS_PER_CONVERSATION = 3;
/** Message matches read per query: the most recent ones (FTS5 walks rowids backwards and stops early). */
const MAX_MESSAGE_ROWS = 400;

/** Stored metadata was validated when written: parsed without validating again (search lists many). */
const metaOf = (row: ConversationRow): ConversationMeta => JSON.parse(row.meta) as ConversationMeta;

/** Searches conversation titles and message text; conversations with the most recent matches first. */
export function searchChats(db: ChatDb, text: string): ChatSearchResult[] {
  const q = toFtsQuery(text);
  if (!q) return [];
  // Messages saved in the last moments are indexed in batches: bring the index up to date first.
  db.indexPending();
  const titles = db.db
    .prepare(
      `SELECT c.*, highlight(titles_fts, 0, '${OPEN}', '${CLOSE}') AS marked
       FROM titles_fts JOIN conversations c ON c.seq = titles_fts.rowid
       WHERE titles_fts MATCH ? AND c.deleted_at IS NULL ORDER BY titles_fts.rowid DESC LIMIT ${MAX_CONVERSATIONS}`,
    )
    .all(q) as (ConversationRow & { marked: string })[];
  // Matching rows in one statement (FTS5 walks its index backwards and stops at the limit). Excerpts are cut
  // here rather than by FTS5's snippet(), which would evaluate the whole query again for every hit.
  const matches = db.db
    .prepare(
      `SELECT m.seq, m.id, m.role, m.conversation_id FROM messages m WHERE m.seq IN
         (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ${MAX_MESSAGE_ROWS})
       ORDER BY m.seq DESC`,
    )
    .all(q) as { seq: number; id: string; role: ChatSearchResult['hits'][number]['role']; conversation_id: string }[];
  const byConv = new Map<string, ChatSearchResult>();
  const add = (row: ConversationRow | undefined): ChatSearchResult | undefined => {
    if (!row || row.deleted_at) return undefined;
    let r = byConv.get(row.id);
    if (!r && byConv.size < MAX_CONVERSATIONS) byConv.set(row.id, (r = { meta: metaOf(row), hits: [] }));
    return r;
  };
  for (const t of titles) {
    const r = add(t);
    if (r) r.title = toParts(t.marked);
  }
  const shown: { r: ChatSearchResult; seq: number; id: string; role: (typeof matches)[number]['role'] }[] = [];
  const convCache = new Map<string, ChatSearchResult | undefined>();
  for (const m of matches) {
    let r = byConv.get(m.conversation_id);
    if (!r) {
      if (!convCache.has(m.conversation_id)) convCache.set(m.conversation_id, add(db.conversation(m.conversation_id)));
      r = convCache.get(m.conversation_id);
    }
    if (r && r.hits.length + shown.filter((s) => s.r === r).length < HITS_PER_CONVERSATION)
      shown.push({ r, seq: m.seq, id: m.id, role: m.role });
  }
  if (shown.length) {
    const contents = new Map(
      (
        db.db
          .prepare(`SELECT seq, content FROM messages WHERE seq IN (${shown.map(() => '?').join(',')})`)
          .all(...shown.map((s) => s.seq)) as { seq: number; content: string }[]
      ).map((c) => [c.seq, c.content]),
    );
    const terms = queryTerms(text);
    for (const s of shown)
      s.r.hits.push({ messageId: s.id, role: s.role, excerpt: excerpt(contents.get(s.seq) ?? '', terms) });
  }
  return [...byConv.values()];
}
