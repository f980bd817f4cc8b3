/** A filter select: "Any …" first (the filter off), then the options; `onChange` gets undefined for "Any". */
export function OptionSelect({
  label,
  any,
  value,
  options,
  onChange,
}: {
  label: string;
  any: string;
  value: string | undefined;
  options: readonly { value: string; label: string }[];
  onChange(value: string | undefined): void;
}) {
  return (
    <select aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
      <option value="">{any}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
