import { useRef, useState } from 'react';
import type { Snippet, SnippetOptions, SnippetsResult } from '@shared/contract/snippets';
import type { AppErrorShape } from '@shared/errors';
import type { ModelRecord } from '@shared/model-record';
import { api, isDesktop } from '../api';
import { download } from '../lib/download';
import { useQuery } from './query';

/** Inference snippets with a real token written in: the user's HF token, or a 2-minute fal token. */
export interface TokenOverlay {
  source: 'hf' | 'fal';
  snippets: Snippet[];
  expiresAt?: number;
}

/**
 * The workbench's calls to main: the snippets for the model and options (generated again when they change), the
 * same with the user's token or a temporary fal token on request, and saving a pane. `notify` tells the user how
 * each ended; `onOverlay` lets the panes drop edits made on the text a token replaced.
 */
export function useSnippets(
  model: ModelRecord,
  quant: string | undefined,
  options: SnippetOptions,
  notify: (message: string) => void,
  onOverlay: () => void,
) {
  const [overlay, setOverlay] = useState<TokenOverlay>();
  const [busy, setBusy] = useState(false);
  // Each generation's number: a token overlay asked for options changed since (typing, toggling) is dropped.
  const generation = useRef(0);
  // Asked again when the options change; the last snippets stay (marked stale) while the new ones are generated.
  const q = useQuery(() => {
    generation.current++;
    // A fresh wrapper per answer: each new answer replaces any token overlay, as below.
    return api.call('snippets.generate', { model, quant, options }).then((r) => ({ r }));
  }, [model, quant, options]);
  const [shownFor, setShownFor] = useState(q.last);
  if (shownFor !== q.last) {
    setShownFor(q.last);
    setOverlay(undefined);
  }
  const result = q.last?.r;
  const error = q.state === 'error' ? q.error : undefined;
  const loading = q.state === 'loading';
  const load = q.reload;

  /** Runs a token call with the panes marked busy; its overlay replaces the inference snippets. */
  const withOverlay = async (fetch: () => Promise<TokenOverlay | undefined>, done: (o: TokenOverlay) => string) => {
    const mine = generation.current;
    setBusy(true);
    try {
      const o = await fetch();
      // Snippets made for options changed meanwhile would not match the panes: dropped.
      if (mine !== generation.current) return;
      if (o?.snippets.length) setOverlay(o);
      onOverlay();
      if (o) notify(done(o));
    } catch (e) {
      notify((e as AppErrorShape).message);
    } finally {
      setBusy(false);
    }
  };
  const inference = (r: SnippetsResult) => r.sections.find((x) => x.kind === 'inference')?.snippets ?? [];

  const insertMyToken = () => {
    let withheld: string | undefined;
    return withOverlay(
      async () => {
        const r = await api.call('snippets.withToken', { model, quant, options });
        withheld = r.tokenWithheld;
        return { source: 'hf' as const, snippets: inference(r) };
      },
      () => withheld ?? 'Your token is now in the snippets — do not share them',
    );
  };

  const insertFalToken = (endpointId: string) =>
    withOverlay(
      async () => {
        const t = await api.call('fal.tempToken', { endpointId });
        const r = await api.call('snippets.generate', {
          model,
          quant,
          kinds: ['inference'],
          options: { ...options, provider: 'fal-ai', directRequest: true },
          tempToken: t.token,
        });
        return { source: 'fal' as const, snippets: inference(r), expiresAt: t.expiresAt, app: t.app };
      },
      (o) => `A 2-minute fal token for ${(o as TokenOverlay & { app: string }).app} is in the snippets`,
    );

  const save = (fileName: string, content: string) => saveSnippet(fileName, content, notify);

  return { result, error, loading, load, overlay, setOverlay, busy, insertMyToken, insertFalToken, save };
}

/** "Save to project…" for a pane: main's save dialog writes the file on the desktop; the web mode downloads it. */
export async function saveSnippet(fileName: string, content: string, notify: (message: string) => void) {
  if (!isDesktop) {
    // A text file ends with a newline (editors and linters expect one).
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
}
