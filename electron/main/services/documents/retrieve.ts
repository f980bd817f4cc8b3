import type { Citation, KnowledgeBase, ReplyContext } from '@shared/contract/documents';
import type { Logger } from '../log';
import { aboveFloor } from './relevance';
import { budget } from './budget';
import type { EmbedFn } from './embedder';
import type { Indexer } from './indexer';
import { embedderKey, type DocIndexPort, type RetrievedContext, type RetrievalPort } from './ports';
import { estimateTokens } from './tokens';

interface RetrieveDeps {
  index: DocIndexPort;
  indexer: Indexer;
  embed: EmbedFn;
  log: Logger;
}

/** Hits asked of the hybrid search before the budget keeps what fits. */
const SEARCH_LIMIT = 50;
const EXCERPT_CHARS = 300;
/** The contract's bound on the context text kept with a message. */
const MAX_CONTEXT_TEXT = 2_000_000;

interface Passage {
  chunk: number;
  document: string;
  name: string;
  page?: number;
  heading?: string;
  text: string;
  tokens: number;
}

/** Retrieval for replies: whole documents when they fit the budget, else the best passages by hybrid search. */
export function retrieval(deps: RetrieveDeps): RetrievalPort['retrieve'] {
  return async (q, signal) => {
    const { index } = deps;
    const ids = () => basesOf(index, q.conversation, q.bases).map((b) => b.id);
    if (!ids().length) return undefined;
    if (q.waitMs) await waitForIndexing(deps, ids(), q.waitMs, signal);
    const bases = index.bases({ ids: ids() });
    const docs = bases.flatMap((b) => b.documents);
    if (!docs.length) return undefined;
    const usable = docs.filter((d) => d.state === 'ready' || d.state === 'embedding');
    const waiting = docs.filter((d) => d.state === 'queued' || d.state === 'extracting').map((d) => d.name);
    const wholeTokens = usable.reduce((n, d) => n + d.tokens, 0);
    if (wholeTokens <= q.budgetTokens) {
      const passages = usable.flatMap((d) => wholeDoc(index, d.id, d.name));
      return build('whole', passages, waiting);
    }
    // Pinned documents go whole while they fit; the rest of the budget is filled by search.
    let left = q.budgetTokens;
    const pinned: Passage[] = [];
    for (const d of usable.filter((d) => d.pinned)) {
      if (d.tokens > left) continue;
      const p = wholeDoc(index, d.id, d.name);
      pinned.push(...p);
      left -= p.reduce((n, x) => n + x.tokens, 0);
    }
    const pinnedIds = new Set(pinned.map((p) => p.document));
    const embedder = index.getEmbedder();
    let vector: number[] | undefined;
    if (embedder)
      try {
        [vector] = await deps.embed(embedder, [q.question]);
      } catch (e) {
        // The words still find passages (BM25): a missing model is shown on the documents, not on the reply.
        deps.log.warn('question not embedded', { message: String((e as Error).message) });
      }
    signal?.throwIfAborted();
    const hits = index
      .search(ids(), q.question, vector, vector && embedder ? embedderKey(embedder) : undefined, SEARCH_LIMIT)
      .filter((h) => !pinnedIds.has(h.document));
    // Below the floor a passage is noise that would be cited: not sent, not shown.
    const relevant = aboveFloor(hits).map((h) => ({ ...h, tokens: estimateTokens(h.text) }));
    // Documents still embedding were searched by their words (their chunks are stored): seen, not by meaning.
    const byWords = (vector ? usable.filter((d) => d.state === 'embedding') : usable)
      .filter((d) => !pinnedIds.has(d.id))
      .map((d) => d.name);
    return build('retrieved', [...pinned, ...budget(relevant, left)], waiting, byWords);
  };
}

/** The conversation's own base (if it has one) and its named bases that still exist. */
/** Whether the conversation's own base or its named bases hold any document. */
export function hasDocuments(index: DocIndexPort, conversation: string, named: string[]): boolean {
  return basesOf(index, conversation, named).some((b) => b.documents.length > 0);
}

function basesOf(index: DocIndexPort, conversation: string, named: string[]): KnowledgeBase[] {
  const own = index.bases({ conversation }).filter((b) => b.conversation === conversation);
  const others = named.length ? index.bases({ ids: named }) : [];
  const seen = new Set<string>();
  return [...own, ...others].filter((b) => !seen.has(b.id) && !!seen.add(b.id));
}

function wholeDoc(index: DocIndexPort, document: string, name: string): Passage[] {
  const chunk = index.firstChunk(document);
  if (chunk === undefined) return [];
  const text = index.chunkText(document);
  return [{ chunk, document, name, text, tokens: estimateTokens(text) }];
}

/** Waits while the bases' documents are being indexed (not paused, not stopped), up to `ms`. */
async function waitForIndexing(deps: RetrieveDeps, bases: string[], ms: number, signal?: AbortSignal) {
  const busy = () =>
    bases.some((b) => {
      const s = deps.indexer.state(b);
      if (s.paused || s.error) return false;
      return deps.index.documents({ base: b, state: ['queued', 'extracting', 'embedding'] }).length > 0;
    });
  if (!busy()) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = deps.indexer.onChange(() => {
      if (!busy()) done();
    });
    signal?.addEventListener('abort', done, { once: true });
  });
}

function build(
  mode: ReplyContext['mode'],
  passages: Passage[],
  notIndexed: string[],
  wordsOnly: string[] = [],
): RetrievedContext {
  const citations: Citation[] = passages.map((p, i) => ({
    n: i + 1,
    chunk: p.chunk,
    document: p.document,
    name: p.name,
    ...(p.page !== undefined ? { page: p.page } : {}),
    ...(p.heading ? { heading: p.heading } : {}),
    excerpt: excerpt(p.text),
  }));
  const blocks = passages.map((p, i) => `[${i + 1}] ${where(p)}\n${p.text.trim()}`);
  const note = notIndexed.length
    ? `\n\nNot indexed yet (say so if the answer may be there): ${notIndexed.join(', ')}.`
    : '';
  const system = passages.length
    ? `Passages from the user's documents${mode === 'whole' ? ' (each document whole)' : ''}, numbered:\n\n${blocks.join('\n\n')}${note}\n\nCite the passages you use as [n].`
    : `The user's documents gave no passage for this question.${note}`;
  const context: ReplyContext = { mode, citations, text: system.slice(0, MAX_CONTEXT_TEXT) };
  if (notIndexed.length) context.notIndexed = notIndexed;
  if (wordsOnly.length) context.wordsOnly = wordsOnly;
  return { context, system };
}

function where(p: Passage): string {
  return [p.name, p.page !== undefined ? `page ${p.page}` : '', p.heading ? `"${p.heading}"` : '']
    .filter(Boolean)
    .join(', ');
}

function excerpt(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= EXCERPT_CHARS ? t : `${t.slice(0, EXCERPT_CHARS - 1)}…`;
}
