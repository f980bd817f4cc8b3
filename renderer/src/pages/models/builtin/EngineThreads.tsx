import { useEffect, useRef, useState } from 'react';
import type { EngineStatus } from '@shared/contract/local-engine';
import { ErrorLine } from '../Modal';
import type { EngineControl } from './types';

const MAX_THREADS = 256;

/**
 * "CPU threads: 4" (or "1 (automatic)") and Change: an inline field for a count, or Automatic. Enter saves, Escape
 * or Cancel leaves it as it was; the keyboard goes back to Change either way.
 */
export function EngineThreads({
  threads,
  action,
}: {
  threads: EngineStatus['threads'];
  action: EngineControl['threads'];
}) {
  const [editing, setEditing] = useState(false);
  const change = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !editing) change.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  if (editing) return <ThreadsForm threads={threads} action={action} onDone={() => setEditing(false)} />;
  return (
    <span className="engine-threads">
      <span data-testid="engine-threads">
        CPU threads: {threads.value}
        {threads.auto ? ' (automatic)' : ''}
      </span>
      <button
        ref={change}
        className="btn btn-sm btn-ghost"
        aria-label="Change CPU threads"
        onClick={() => {
          action.clear();
          setEditing(true);
        }}
      >
        Change
      </button>
    </span>
  );
}

function ThreadsForm({
  threads,
  action,
  onDone,
}: {
  threads: EngineStatus['threads'];
  action: EngineControl['threads'];
  onDone: () => void;
}) {
  const [auto, setAuto] = useState(threads.auto);
  const [count, setCount] = useState(String(threads.value));
  const countRef = useRef<HTMLInputElement>(null);
  const autoRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // The field to type in, or Automatic when that is what is chosen (the count is then greyed out).
    (threads.auto ? autoRef : countRef).current?.focus();
  }, [threads.auto]);
  const n = Number(count.trim());
  const invalid = !auto && !(/^\d+$/.test(count.trim()) && n >= 1 && n <= MAX_THREADS);
  const save = async () => {
    if (invalid || action.busy) return;
    if (await action.run(auto ? 0 : n)) onDone();
  };
  const described = ['threads-hint', invalid ? 'threads-error' : ''].filter(Boolean).join(' ');
  return (
    <form
      className="threads-form"
      aria-label="CPU threads"
      data-testid="threads-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onDone();
        } else if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
          // The checkbox too: Enter saves from either field.
          e.preventDefault();
          void save();
        }
      }}
    >
      <label className="inline-label">
        CPU threads
        <input
          ref={countRef}
          inputMode="numeric"
          value={count}
          disabled={auto}
          onChange={(e) => setCount(e.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={described}
        />
      </label>
      <label className="inline-label">
        <input
          ref={autoRef}
          type="checkbox"
          checked={auto}
          onChange={(e) => setAuto(e.target.checked)}
          aria-describedby="threads-hint"
        />
        Automatic
      </label>
      <button type="submit" className="btn btn-sm btn-primary" disabled={invalid || action.busy}>
        {action.busy ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="btn btn-sm" onClick={onDone}>
        Cancel
      </button>
      {invalid && (
        <p className="field-error" id="threads-error">
          Use a whole number from 1 to {MAX_THREADS}.
        </p>
      )}
      <p className="help" id="threads-hint">
        Applies from the next load: a model loaded now keeps its threads until it is loaded again. Automatic uses every
        math core but one.
      </p>
      <ErrorLine error={action.error} />
    </form>
  );
}
