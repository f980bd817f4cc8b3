import type { Snippet } from '@shared/contract/snippets';

function header(s: Snippet): string {
  return `=== ${s.kind} · ${s.language} · ${s.client}${s.title ? ` · ${s.title}` : ''} ===`;
}

/** What stdout gets: the code under a header line each, or with --json an array of {kind, language, client, title?, content}. */
export function formatSnippets(list: Snippet[], json: boolean): string {
  if (!json) return list.map((s) => `${header(s)}\n${s.content}\n`).join('\n');
  return (
    JSON.stringify(
      list.map((s) => ({
        kind: s.kind,
        language: s.language,
        client: s.client,
        ...(s.title ? { title: s.title } : {}),
        content: s.content,
      })),
      null,
      2,
    ) + '\n'
  );
}
