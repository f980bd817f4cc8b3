import { useEffect, useState } from 'react';

/** A number parameter of the conversation, saved when the field loses focus; empty is the model's default. */
export function NumberField({
  label,
  value,
  step,
  placeholder,
  onChange,
}: {
  label: string;
  value: number | undefined;
  step?: number;
  placeholder?: string;
  onChange(v: number | undefined): void;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  useEffect(() => setText(value === undefined ? '' : String(value)), [value]);
  const id = `param-${label.replace(/\W+/g, '-')}`;
  return (
    <label className="param" htmlFor={id}>
      <span>{label}</span>
      <input
        id={id}
        type="number"
        step={step ?? 1}
        value={text}
        placeholder={placeholder ?? 'default'}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          const n = text.trim() === '' ? undefined : Number(text);
          // Leaving a field unchanged saves nothing (a save of the old value could undo another field's change).
          if (n === value) return;
          if (n === undefined || Number.isFinite(n)) onChange(n);
        }}
      />
    </label>
  );
}
