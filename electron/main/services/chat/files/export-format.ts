import { inertMarkdown } from '@shared/inert-markdown';
import type { ConversationTreeExport, TreeMessage } from '@shared/contract/chat-export';
import type { ReplyContext } from '@shared/contract/documents';

/** A file name from a title: words joined by single dashes, never two dots in a row nor a leading dot. */
export function exportFileName(title: string, ext: 'json' | 'md'): string {
  const base =
    title
      .replace(/[^\w.-]+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/-{2,}/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 60)
      .replace(/[-.]+$/g, '') || 'conversation';
  return `${base}.${ext}`;
}

/** The messages shown: the path from the first message to the leaf. */
function shownPath(exp: ConversationTreeExport): TreeMessage[] {
  const byId = new Map(exp.messages.map((m) => [m.id, m]));
  const path: TreeMessage[] = [];
  for (let m = exp.leafId ? byId.get(exp.leafId) : undefined; m; m = m.parentId ? byId.get(m.parentId) : undefined)
    path.push(m);
  return path.reverse();
}

/** One line of text for a list item: whitespace folded, cut to `max` characters, made inert. */
const oneLine = (text: string, max: number) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return inertMarkdown(t.length > max ? `${t.slice(0, max - 1)}…` : t);
};

/** The passages (or whole documents) a reply was given, numbered as it cited them: `[1] file.pdf, p. 3 — excerpt`. */
function sourcesOf(ctx: ReplyContext): string[] {
  const out: string[] = [];
  if (ctx.citations.length) {
    out.push(ctx.mode === 'whole' ? 'Sources (whole documents):' : 'Sources:', '');
    for (const c of ctx.citations) {
      const where = c.page !== undefined ? `, p. ${c.page}` : c.heading ? `, § ${oneLine(c.heading, 80)}` : '';
      out.push(`- [${c.n}] ${oneLine(c.name, 120)}${where} — ${oneLine(c.excerpt, 200)}`);
    }
    out.push('');
  }
  if (ctx.notIndexed?.length)
    out.push(
      `> Not indexed yet: ${ctx.notIndexed.map((n) => oneLine(n, 120)).join(', ')} — the answer did not see them.`,
      '',
    );
  return out;
}

/** The messages whose sources are listed: the last with a context of each answer (its tool rounds share one). */
function sourcedIds(messages: readonly TreeMessage[]): Set<string> {
  const ids = new Set<string>();
  let pending: string | undefined;
  for (const m of messages) {
    if (m.role === 'user' && pending) ids.add(pending);
    if (m.role === 'user') pending = undefined;
    else if (m.context) pending = m.id;
  }
  if (pending) ids.add(pending);
  return ids;
}

/**
 * A conversation as Markdown: readable, with the settings that produced it (`engine`: which server answered, in its
 * engine's words); the versions shown only; under each answer that used documents, its sources.
 */
export function toMarkdown(exp: ConversationTreeExport, engine: string): string {
  const { meta } = exp;
  const messages = shownPath(exp);
  const hidden = exp.messages.length - messages.length;
  // What the model or the user wrote is made inert: raw HTML shows as text in any Markdown viewer.
  const out: string[] = [`# ${inertMarkdown(meta.title)}`, ''];
  out.push(`- Model: \`${meta.model || '(none)'}\` (${inertMarkdown(engine)})`);
  const params = Object.entries(meta.params);
  if (params.length) out.push(`- Parameters: ${params.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`);
  out.push(`- Created: ${meta.createdAt}`);
  if (hidden)
    out.push(
      `- Versions: the ones shown; ${hidden === 1 ? '1 other message' : `${hidden} other messages`} (earlier versions) only in the JSON export`,
    );
  out.push('');
  if (meta.system) out.push('## System', '', inertMarkdown(meta.system), '');
  const sourced = sourcedIds(messages);
  for (const m of messages) {
    const who = m.role === 'user' ? 'User' : m.role === 'assistant' ? 'Assistant' : `Tool (${m.toolName ?? 'tool'})`;
    const mark =
      m.status === 'stopped'
        ? ' (stopped)'
        : m.status === 'interrupted'
          ? ' (interrupted)'
          : m.status === 'error'
            ? ' (failed)'
            : '';
    out.push(`## ${who}${mark}`, '');
    if (m.thinking)
      out.push('<details><summary>Thinking</summary>', '', inertMarkdown(m.thinking), '', '</details>', '');
    if (m.content) out.push(inertMarkdown(m.content), '');
    for (const c of m.toolCalls ?? []) out.push(`> Tool call: \`${c.name}(${JSON.stringify(c.arguments)})\``, '');
    if (m.error) out.push(`> Error: ${inertMarkdown(m.error.message)}`, '');
    if (m.context && sourced.has(m.id)) out.push(...sourcesOf(m.context));
  }
  return out.join('\n');
}
