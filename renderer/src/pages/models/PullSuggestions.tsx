import { useEffect, useState, type RefObject } from 'react';
import { useHubPullSuggestions } from '../../hooks/models';
import { formatBytes } from '../../lib/format';
import { hubReference, matchLibrary } from '../../lib/ollama-library';

interface Suggestion {
  value: string;
  note?: string;
  group: 'library' | 'hub';
}

const LIST_ID = 'pull-suggestions';
const optionId = (i: number) => `pull-option-${i}`;
/** A Hub repo without a quant: picking it keeps the list open for its quants. */
const wantsQuant = (s: Suggestion) => s.group === 'hub' && !/^hf\.co\/[^:]+:/.test(s.value);

/** `value`, once it has stayed the same for `ms` (the Hub is not asked on every key). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** The Ollama library names matching `text`, then the Hub's GGUF repos (or the quants of the repo typed). */
function useSuggestions(text: string): Suggestion[] {
  const hub = useHubPullSuggestions(hubReference(useSettled(text, 250)));
  const library = matchLibrary(text).map((m): Suggestion => ({ value: m.name, note: m.note, group: 'library' }));
  const ref = hubReference(text);
  const hubRows: Suggestion[] = ref.repo
    ? hub.quants.map((q) => ({
        value: `hf.co/${ref.repo}:${q.label}`,
        note: q.size ? formatBytes(q.size) : undefined,
        group: 'hub',
      }))
    : hub.repos.map((id) => ({ value: `hf.co/${id}`, note: 'GGUF · pick it to choose a quant', group: 'hub' }));
  return [...library, ...hubRows];
}

/**
 * The pull form's model box: a combobox whose list suggests names as you type (↓/↑ to move, Enter to take one,
 * Escape to close). Taking a Hub repo leaves the list open on its quants.
 */
export function PullNameBox({
  value,
  onChange,
  inputRef,
  invalid,
}: {
  value: string;
  onChange: (name: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  invalid: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const options = useSuggestions(value);
  const shown = open && options.length > 0;
  const current = shown && active < options.length ? active : -1;

  useEffect(() => {
    if (current >= 0) document.getElementById(optionId(current))?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  const pick = (s: Suggestion) => {
    onChange(s.value);
    setActive(-1);
    setOpen(wantsQuant(s));
    inputRef.current?.focus();
  };
  const move = (step: number) => {
    setOpen(true);
    setActive((i) => {
      const from = shown && i < options.length ? i : -1;
      const n = options.length;
      return n === 0 ? -1 : from < 0 ? (step > 0 ? 0 : n - 1) : (from + step + n) % n;
    });
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter' && current >= 0) {
      e.preventDefault();
      pick(options[current]);
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };

  const group = (g: Suggestion['group'], label: string) => {
    const rows = options.map((s, i) => ({ s, i })).filter(({ s }) => s.group === g);
    if (rows.length === 0) return null;
    return (
      <div role="group" aria-label={label} className="pull-group">
        <div className="pull-group-label" aria-hidden="true">
          {label}
        </div>
        {rows.map(({ s, i }) => (
          <div
            key={s.value}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            className={`pull-option${i === current ? ' active' : ''}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(s)}
          >
            <span className="mono">{s.value}</span>
            {s.note && <span className="muted small">{s.note}</span>}
          </div>
        ))}
      </div>
    );
  };

  return (
    <div className="pull-combo">
      <input
        id="pull-name"
        ref={inputRef}
        className="mono"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={LIST_ID}
        aria-activedescendant={current >= 0 ? optionId(current) : undefined}
        value={value}
        placeholder="llama3.2 · qwen3:8b · hf.co/owner/repo:Q4_K_M"
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        aria-invalid={invalid || undefined}
        aria-describedby="pull-help"
        spellCheck={false}
        autoComplete="off"
      />
      <div id={LIST_ID} role="listbox" aria-label="Suggested models" className="pull-list" hidden={!shown}>
        {shown && (
          <>
            {group('library', 'Ollama library')}
            {group('hub', 'Hugging Face Hub (GGUF)')}
          </>
        )}
      </div>
    </div>
  );
}
