import { useState } from 'react';
import type { Snippet } from '@shared/contract/snippets';
import { unique } from './workbench-helpers';

type Picks = { modelId: string; at: Record<string, string | number>; language?: string; client?: string };

/**
 * Which pane each tab shows: the language last picked in each kind, the client last picked in each language, the
 * variant last picked for each client. Going to another tab and back shows the same pane, so its edits are there
 * (a tab never picked starts from the last pick anywhere, when it has it, else its first).
 */
export function usePanePicks(kind: string, snippets: Snippet[], modelId: string) {
  const [state, setPicks] = useState<Picks>({ modelId, at: {} });
  // Picks belong to one model: the workbench stays mounted when the page moves to another model, and a pick made
  // there (a client's third variant, say) must not choose the new model's first pane, even for one render.
  let picks = state;
  if (state.modelId !== modelId) {
    picks = { modelId, at: {} };
    setPicks(picks);
  }
  const choose = <T extends string>(picked: unknown, last: T | undefined, list: T[]): T | undefined =>
    list.find((x) => x === picked) ?? list.find((x) => x === last) ?? list[0];

  const languages = unique(snippets.map((s) => s.language));
  const lang = choose(picks.at[kind], picks.language, languages);
  const clients = unique(snippets.filter((s) => s.language === lang).map((s) => s.client));
  const cli = choose(picks.at[`${kind}|${lang}`], picks.client, clients);
  const variants = snippets.filter((s) => s.language === lang && s.client === cli);
  const v = picks.at[`${kind}|${lang}|${cli}`];
  const idx = typeof v === 'number' && v < variants.length ? v : 0;

  return {
    languages,
    lang,
    clients,
    cli,
    variants,
    idx,
    current: variants.at(idx),
    pickLanguage: (l: string) => setPicks((p) => ({ ...p, language: l, at: { ...p.at, [kind]: l } })),
    pickClient: (c: string) => setPicks((p) => ({ ...p, client: c, at: { ...p.at, [`${kind}|${lang}`]: c } })),
    pickVariant: (i: number) => setPicks((p) => ({ ...p, at: { ...p.at, [`${kind}|${lang}|${cli}`]: i } })),
  };
}
