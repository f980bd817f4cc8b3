import type { AppErrorShape } from '@shared/errors';
import { api, isDesktop } from '../api';
import { download } from '../lib/download';
import { useQuery } from './query';

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

/** "Save to project…" for a pane: main's save dialog on the desktop, a download in the web mode. */
export function useSaveSnippet(notify: (message: string) => void) {
  return async (fileName: string, content: string) => {
    if (!isDesktop) {
      download(fileName, content.endsWith('\n') ? content : `${content}\n`);
      notify(`Downloading ${fileName}`);
      return;
    }
    try {
      const r = await api.call('snippets.save', { fileName, content });
      if (r.saved) notify(`Saved to ${r.path}`);
    } catch (e) {
      notify((e as AppErrorShape).message);
    }
  };
}
