import type { ReactNode } from 'react';
import { fieldKey, listHint, type Field, type FieldValue, type FormValues } from '../../lib/schema-form';

interface FieldsProps {
  /** Prefix of every input's id (unique per tool on the page). */
  idBase: string;
  fields: Field[];
  values: FormValues;
  errors: Record<string, string>;
  onChange(values: FormValues): void;
}

/** The id of a field's input, which the "Run" check focuses when the field is wrong. */
export const inputId = (idBase: string, f: Field) => `${idBase}-${f.path.join('-')}`.replace(/[^\w-]/g, '_');

function Required({ on }: { on: boolean }) {
  return on ? <span className="mcp-req">required</span> : null;
}

function range(f: Field): string | undefined {
  if (f.min !== undefined && f.max !== undefined) return `From ${f.min} to ${f.max}.`;
  if (f.min !== undefined) return `At least ${f.min}.`;
  if (f.max !== undefined) return `At most ${f.max}.`;
  return undefined;
}

/** The field's hint and error lines, with the ids its input names in aria-describedby. */
function Notes({ id, f, error }: { id: string; f: Field; error?: string }) {
  const extra = f.kind === 'list' ? listHint(f) : f.kind === 'json' ? 'As JSON.' : f.kind === 'number' ? range(f) : '';
  const hint = [f.hint, extra].filter(Boolean).join(' ');
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="help">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </>
  );
}

function describedBy(id: string, f: Field, error?: string): string | undefined {
  const hint = f.hint || f.kind === 'list' || f.kind === 'json' || range(f);
  return [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
}

function Input({
  id,
  f,
  value,
  error,
  set,
}: {
  id: string;
  f: Field;
  value: FieldValue;
  error?: string;
  set(v: FieldValue): void;
}) {
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-required': f.required || undefined,
    'aria-describedby': describedBy(id, f, error),
  };
  const text = typeof value === 'string' ? value : '';
  if (f.kind === 'boolean')
    return <input {...common} type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} />;
  if (f.kind === 'select')
    return (
      <select {...common} value={text} onChange={(e) => set(e.target.value)}>
        {(!f.required || text === '') && <option value="">{f.required ? 'Choose…' : '(not set)'}</option>}
        {f.options!.map((o) => (
          <option key={o.label} value={o.label}>
            {o.label}
          </option>
        ))}
      </select>
    );
  if (f.kind === 'list' || f.kind === 'json')
    return (
      <textarea
        {...common}
        className={f.kind === 'json' ? 'mono' : undefined}
        rows={Math.min(6, Math.max(2, text.split('\n').length + 1))}
        spellCheck={false}
        value={text}
        onChange={(e) => set(e.target.value)}
      />
    );
  if (f.kind === 'number')
    return (
      <input
        {...common}
        type="number"
        min={f.min}
        max={f.max}
        step={f.integer ? 1 : 'any'}
        value={text}
        onChange={(e) => set(e.target.value)}
      />
    );
  return (
    <input
      {...common}
      type={f.kind === 'url' ? 'url' : 'text'}
      spellCheck={false}
      value={text}
      onChange={(e) => set(e.target.value)}
    />
  );
}

/** One field: a label tied to its input, a hint from the schema's description, its error in words. */
function FieldRow(props: {
  idBase: string;
  f: Field;
  value: FieldValue;
  errors: Record<string, string>;
  set(v: FieldValue): void;
}) {
  const { idBase, f, value, errors, set } = props;
  const id = inputId(idBase, f);
  if (f.kind === 'object') {
    const values = typeof value === 'object' ? value : {};
    return (
      <fieldset className="mcp-fieldset">
        <legend>
          {f.label} <Required on={f.required} />
        </legend>
        {(f.hint || !f.required) && (
          <p className="help">{[f.hint, !f.required && 'Left empty, it is not sent.'].filter(Boolean).join(' ')}</p>
        )}
        <SchemaFields idBase={idBase} fields={f.fields ?? []} values={values} errors={errors} onChange={set} />
      </fieldset>
    );
  }
  const error = errors[fieldKey(f)];
  const label: ReactNode = (
    <label htmlFor={id}>
      <span className="mono">{f.label}</span> <Required on={f.required} />
    </label>
  );
  return (
    <div className={`mcp-field${f.kind === 'boolean' ? ' mcp-field-check' : ''}`}>
      {f.kind === 'boolean' ? (
        <div className="mcp-check">
          <Input id={id} f={f} value={value} error={error} set={set} />
          {label}
        </div>
      ) : (
        <>
          {label}
          <Input id={id} f={f} value={value} error={error} set={set} />
        </>
      )}
      <Notes id={id} f={f} error={error} />
    </div>
  );
}

/** The fields of a tool's input schema (see `lib/schema-form.ts`), nested objects as fieldsets. */
export function SchemaFields({ idBase, fields, values, errors, onChange }: FieldsProps) {
  return (
    <>
      {fields.map((f) => {
        const name = f.path.at(-1)!;
        return (
          <FieldRow
            key={name}
            idBase={idBase}
            f={f}
            value={values[name] ?? ''}
            errors={errors}
            set={(v) => onChange({ ...values, [name]: v })}
          />
        );
      })}
    </>
  );
}
