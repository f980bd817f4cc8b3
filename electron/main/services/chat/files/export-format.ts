import { inertMarkdown } from '@shared/inert-markdown';
import type { ConversationTreeExport, TreeMessage } from '@shared/contract/chat';

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

/** The engine line's words: which server answered. */
function engineOf(meta: ConversationTreeExport['meta'], endpointName?: string): string {
  if (meta.backend === 'ollama') return 'Ollama';
  if (meta.backend === 'provider') return `Hugging Face router, provider ${meta.provider}`;
  if (meta.backend === 'local') return 'built-in llama.cpp engine';
  return `endpoint ${inertMarkdown(endpointName ?? meta.endpoint ?? '(none)')}`;
}

/**
 * A conversation as Markdown: readable, with the settings that produced it; the versions shown only. An endpoint
 * conversation names its endpoint (`endpointName`, when it still exists).
 */
export function toMarkdown(exp: ConversationTreeExport, endpointName?: string): string {
  const { meta } = exp;
  const messages = shownPath(exp);
  const hidden = exp.messages.length - messages.length;
  // What the model or the user wrote is made inert: raw HTML shows as text in any Markdown viewer.
  const out: string[] = [`# ${inertMarkdown(meta.title)}`, ''];
  out.push(`- Model: \`${meta.model || '(none)'}\` (${engineOf(meta, endpointName)})`);
  const params = Object.entries(meta.params);
  if (params.length) out.push(`- Parameters: ${params.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`);
  out.push(`- Created: ${meta.createdAt}`);
  if (hidden)
    out.push(
      `- Versions: the ones shown; ${hidden === 1 ? '1 other message' : `${hidden} other messages`} (earlier versions) only in the JSON export`,
    );
  out.push('');
  if (meta.system) out.push('## System', '', inertMarkdown(meta.system), '');
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
  }
  return out.join('\n');
}
