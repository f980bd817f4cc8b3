import { inertMarkdown } from '@shared/inert-markdown';
import type { ConversationExport } from '@shared/contract/chat';

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

/** A conversation as Markdown: readable, with the settings that produced it. */
export function toMarkdown(exp: ConversationExport): string {
  const { meta, messages } = exp;
  // What the model or the user wrote is made inert: raw HTML shows as text in any Markdown viewer.
  const out: string[] = [`# ${inertMarkdown(meta.title)}`, ''];
  out.push(
    `- Model: \`${meta.model || '(none)'}\` (${meta.backend === 'ollama' ? 'Ollama' : `Hugging Face router, provider ${meta.provider}`})`,
  );
  const params = Object.entries(meta.params);
  if (params.length) out.push(`- Parameters: ${params.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`);
  out.push(`- Created: ${meta.createdAt}`, '');
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
