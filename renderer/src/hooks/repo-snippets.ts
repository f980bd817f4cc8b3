import { api } from '../api';
import { useQuery } from './query';
import { saveSnippet } from './snippets';

/**
 * A dataset's "Use this dataset" snippets (pandas reads one of `files`) or a Space's app link and "Use via API";
 * asked only while `enabled` (a dataset waits for its file list).
 */
export function useRepoSnippets(
  kind: 'dataset' | 'space',
  id: string,
  opts: { files?: string[]; sdk?: string },
  enabled = true,
) {
  const { files, sdk } = opts;
  return useQuery(() => api.call('snippets.repo', { kind, id, files, sdk }), [kind, id, files, sdk], enabled);
}

/** "Save to project…" for a pane, as the model's snippets do it. */
export function useSaveSnippet(notify: (message: string) => void) {
  return (fileName: string, content: string) => saveSnippet(fileName, content, notify);
}
