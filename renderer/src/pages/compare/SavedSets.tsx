import { useState } from 'react';
import { useDeleteSet, useSavedSets } from '../../hooks/compare';
import { useCompare } from '../../store/compare';
import { SideList } from './SideList';

/** The saved comparison sets: open one (its panes and settings) or delete it. */
export function SavedSets({ version, onChange }: { version: number; onChange(): void }) {
  const q = useSavedSets(version);
  const del = useDeleteSet(onChange);
  const [opened, setOpened] = useState<string>();
  return (
    <section className="card cmp-side" aria-labelledby="cmp-saved" data-testid="saved-sets">
      <h2 id="cmp-saved">Saved sets</h2>
      <SideList q={q} what="saved sets" empty="None yet: after a comparison, “Save set” keeps its panes and settings.">
        {(sets) =>
          sets.map((s) => (
            <li key={s.id}>
              <span className="cmp-list-name" title={s.name}>
                {s.name}
              </span>
              <span className="muted small">{s.set.panes.length} panes</span>
              <button
                className="btn btn-xs"
                onClick={() => {
                  useCompare.getState().load(s.set, `The saved set “${s.name}”.`);
                  setOpened(s.name);
                }}
              >
                Open<span className="sr-only"> {s.name}</span>
              </button>
              <button className="btn btn-ghost btn-xs" disabled={del.busy} onClick={() => void del.run(s.id)}>
                Delete<span className="sr-only"> {s.name}</span>
              </button>
            </li>
          ))
        }
      </SideList>
      {opened && (
        <p className="muted small" role="status">
          Opened “{opened}”.
        </p>
      )}
      {del.error && (
        <p className="field-error" role="alert">
          {del.error.message}
        </p>
      )}
    </section>
  );
}
