import { useState } from 'react';
import { useExportComparison, useSaveSet } from '../../hooks/compare';
import { toSet, useCompare, type RunView } from '../../store/compare';

/** After a run: the comparison as Markdown, and its panes and settings saved under a name. */
export function RunActions({ run, onSaved }: { run: RunView; onSaved(): void }) {
  const exp = useExportComparison();
  const save = useSaveSet();
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<string>();
  if (!run.id) return null;
  const id = run.id;
  const submit = async () => {
    const r = await save.run(name.trim(), toSet(useCompare.getState().set));
    if (r) {
      setSaved(r.name);
      setName('');
      onSaved();
    }
  };
  return (
    <div className="cmp-run-actions">
      <button className="btn" disabled={exp.busy} onClick={() => void exp.run(id)}>
        Export .md
      </button>
      <form
        className="cmp-save"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <input
          aria-label="Name for this set"
          placeholder="Name this set…"
          value={name}
          maxLength={120}
          onChange={(e) => setName(e.target.value)}
        />
        <button className="btn" type="submit" disabled={!name.trim() || save.busy}>
          Save set
        </button>
      </form>
      {saved && (
        <span className="muted small" role="status">
          Saved as “{saved}”.
        </span>
      )}
      {(exp.error ?? save.error) && (
        <span className="field-error" role="alert">
          {(exp.error ?? save.error)!.message}
        </span>
      )}
    </div>
  );
}
