/**
 * A tool's `inputSchema` (JSON Schema, as MCP servers give it) as form fields, and the form's values as the call's
 * arguments. Only what a form can say plainly gets a field; the rest (oneOf, $ref, arrays of objects…) is a JSON
 * field, or, when the schema is not an object of properties, the whole call stays raw JSON.
 */

type Schema = Record<string, unknown>;
type Scalar = 'string' | 'number' | 'integer' | 'boolean';

type FieldKind = 'text' | 'url' | 'select' | 'number' | 'boolean' | 'list' | 'object' | 'json';

export interface Field {
  /** The property's name, and the names above it for nested objects. */
  path: string[];
  label: string;
  kind: FieldKind;
  required: boolean;
  hint?: string;
  /** number: a whole number only. */
  integer?: boolean;
  min?: number;
  max?: number;
  /** select: the allowed values, shown as their labels. */
  options?: { label: string; value: unknown }[];
  /** list: the type of each item. */
  item?: Scalar;
  /** object: its own fields. */
  fields?: Field[];
  default?: unknown;
}

/** The form's state: text for inputs, a flag for checkboxes, nested values for objects. */
export type FieldValue = string | boolean | FormValues;
export interface FormValues {
  [key: string]: FieldValue;
}

/** Fields for the schema, or why the schema needs the raw JSON editor instead. */
export type FormPlan = { fields: Field[] } | { raw: string };

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const SCALARS = ['string', 'number', 'integer', 'boolean'];
const label = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** `["string", "null"]` and `anyOf: [{type: X}, {type: "null"}]` (pydantic's optional) read as X. */
function unwrapNullable(s: Schema): Schema {
  if (Array.isArray(s.type)) {
    const types = s.type.filter((t) => t !== 'null');
    return types.length === 1 ? { ...s, type: types[0] } : s;
  }
  const alts = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(alts)) {
    const real = alts.filter((a) => !(isObj(a) && a.type === 'null'));
    if (real.length === 1 && isObj(real[0])) {
      const rest = { ...s };
      delete rest.anyOf;
      delete rest.oneOf;
      return { ...real[0], ...rest };
    }
  }
  return s;
}

function field(name: string, raw: unknown, parent: string[], required: boolean): Field {
  const s = isObj(raw) ? unwrapNullable(raw) : {};
  const base: Field = {
    path: [...parent, name],
    label: typeof s.title === 'string' && s.title ? s.title : name,
    kind: 'json',
    required,
    hint: typeof s.description === 'string' ? s.description : undefined,
    default: s.default,
  };
  const complex = ['oneOf', 'anyOf', 'allOf', 'not', '$ref', 'if'].some((k) => k in s);
  if (complex) return base;
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((v) => v === null || typeof v !== 'object'))
    return { ...base, kind: 'select', options: s.enum.map((v) => ({ label: label(v), value: v })) };
  if (s.type === 'string') return { ...base, kind: s.format === 'uri' || s.format === 'url' ? 'url' : 'text' };
  if (s.type === 'number' || s.type === 'integer') {
    const min = typeof s.minimum === 'number' ? s.minimum : undefined;
    const max = typeof s.maximum === 'number' ? s.maximum : undefined;
    return { ...base, kind: 'number', integer: s.type === 'integer', min, max };
  }
  if (s.type === 'boolean') return { ...base, kind: 'boolean' };
  if (s.type === 'array' && isObj(s.items)) {
    const items = unwrapNullable(s.items);
    if (typeof items.type === 'string' && SCALARS.includes(items.type))
      return { ...base, kind: 'list', item: items.type as Scalar };
  }
  if ((s.type ?? 'object') === 'object' && isObj(s.properties))
    return { ...base, kind: 'object', fields: planFields(s, base.path) };
  return base;
}

function planFields(s: Schema, parent: string[]): Field[] {
  const required = Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : [];
  const props = isObj(s.properties) ? s.properties : {};
  return Object.entries(props).map(([name, p]) => field(name, p, parent, required.includes(name)));
}

export function planForm(schema: Record<string, unknown>): FormPlan {
  const s = unwrapNullable(schema);
  if (['oneOf', 'anyOf', 'allOf', '$ref', 'if', 'not'].some((k) => k in s))
    return { raw: 'Its input schema has alternatives or references a form cannot show.' };
  if (s.type !== undefined && s.type !== 'object') return { raw: 'Its input is not an object of named arguments.' };
  if (!isObj(s.properties) && isObj(s.additionalProperties)) return { raw: 'It takes arguments of any name.' };
  return { fields: planFields(s, []) };
}

/** Shown under a list field: how to type its items. */
export function listHint(f: Field): string {
  return f.item === 'string' ? 'One item per line.' : 'One per line, or separated by commas.';
}

function initialValue(f: Field, v: unknown): FieldValue {
  if (f.kind === 'object') return valuesFrom(f.fields ?? [], isObj(v) ? v : {});
  if (f.kind === 'boolean') return v === true;
  // null is how optional arguments say "not set" (pydantic's default: null): an empty field.
  if (v === undefined || v === null) return '';
  if (f.kind === 'list') return Array.isArray(v) ? v.map(label).join('\n') : label(v);
  if (f.kind === 'json') return JSON.stringify(v, null, 2);
  return label(v);
}

function valuesFrom(fields: Field[], args: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const f of fields) out[f.path.at(-1)!] = initialValue(f, args[f.path.at(-1)!]);
  return out;
}

/** The form's first values: each field's `default`. */
export function defaultValues(fields: Field[]): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const name = f.path.at(-1)!;
    out[name] = f.kind === 'object' ? defaultValues(f.fields ?? []) : initialValue(f, f.default);
  }
  return out;
}

/** Arguments (from the raw editor) as form values; keys the schema does not name are kept aside in `extra`. */
export function fromArguments(
  fields: Field[],
  args: Record<string, unknown>,
): { values: FormValues; extra: Record<string, unknown> } {
  const known = new Set(fields.map((f) => f.path.at(-1)));
  const extra = Object.fromEntries(Object.entries(args).filter(([k]) => !known.has(k)));
  return { values: valuesFrom(fields, args), extra };
}

function isUrl(text: string): boolean {
  try {
    return Boolean(new URL(text));
  } catch {
    return false;
  }
}

type Converted = { ok: true; value: unknown } | { ok: false; value: unknown; error: string };

function number(f: Field, text: string, what = 'This'): Converted {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) return { ok: false, value: text, error: `${what} is not a number.` };
  if (f.integer && !Number.isInteger(n)) return { ok: false, value: n, error: `${what} must be a whole number.` };
  if (f.min !== undefined && n < f.min) return { ok: false, value: n, error: `${what} must be at least ${f.min}.` };
  if (f.max !== undefined && n > f.max) return { ok: false, value: n, error: `${what} must be at most ${f.max}.` };
  return { ok: true, value: n };
}

function listItems(f: Field, text: string): Converted {
  const parts = (f.item === 'string' ? text.split('\n') : text.split(/[\n,]/)).map((p) => p.trim()).filter(Boolean);
  const out: unknown[] = [];
  for (const [i, p] of parts.entries()) {
    const what = `Item ${i + 1} (${p})`;
    if (f.item === 'boolean') {
      if (p !== 'true' && p !== 'false') return { ok: false, value: parts, error: `${what} must be true or false.` };
      out.push(p === 'true');
    } else if (f.item === 'number' || f.item === 'integer') {
      const c = number({ ...f, integer: f.item === 'integer', min: undefined, max: undefined }, p, what);
      if (!c.ok) return { ...c, value: parts };
      out.push(c.value);
    } else out.push(p);
  }
  return { ok: true, value: out };
}

function convert(f: Field, v: FieldValue): Converted {
  if (f.kind === 'boolean') return { ok: true, value: v === true };
  const text = typeof v === 'string' ? v : '';
  if (f.kind === 'number') return number(f, text);
  if (f.kind === 'list') return listItems(f, text);
  if (f.kind === 'select') {
    const o = f.options?.find((x) => x.label === text);
    return o ? { ok: true, value: o.value } : { ok: false, value: text, error: 'Choose one of the values.' };
  }
  if (f.kind === 'json') {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (e) {
      return { ok: false, value: text, error: `Not valid JSON: ${(e as Error).message}` };
    }
  }
  if (f.kind === 'url' && !isUrl(text))
    return { ok: false, value: text, error: 'Not a full address: it should start with https:// or similar.' };
  return { ok: true, value: text };
}

/** Whether a value was left empty (an unchecked optional checkbox with no default counts as empty). */
function isEmpty(f: Field, v: FieldValue | undefined): boolean {
  if (v === undefined) return true;
  if (f.kind === 'boolean') return v === false && f.default === undefined;
  if (f.kind === 'object') return (f.fields ?? []).every((c) => isEmpty(c, (v as FormValues)[c.path.at(-1)!]));
  return typeof v === 'string' && v.trim() === '';
}

/** A field's id in errors: its path joined by dots. */
export const fieldKey = (f: Field) => f.path.join('.');

/**
 * The arguments the form stands for, and the fields that are wrong (by `fieldKey`) in words. Empty optional fields
 * are left out; a wrong value still goes into `args` as typed, so the raw editor shows it to be fixed there.
 */
export function toArguments(
  fields: Field[],
  values: FormValues,
  extra: Record<string, unknown> = {},
): { args: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const walk = (fs: Field[], vs: FormValues): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of fs) {
      const v = vs[f.path.at(-1)!];
      if (isEmpty(f, v) && f.kind !== 'object') {
        if (f.required && f.kind !== 'boolean') errors[fieldKey(f)] = 'Required: fill this in.';
        else if (f.required) out[f.path.at(-1)!] = false;
        continue;
      }
      if (f.kind === 'object') {
        if (!f.required && isEmpty(f, v)) continue;
        out[f.path.at(-1)!] = walk(f.fields ?? [], isObj(v) ? (v as FormValues) : {});
        continue;
      }
      const c = convert(f, v!);
      if (!c.ok) errors[fieldKey(f)] = c.error;
      out[f.path.at(-1)!] = c.value;
    }
    return out;
  };
  return { args: { ...extra, ...walk(fields, values) }, errors };
}

/** The names `required` lists that the arguments lack (for the raw editor's check before a call). */
export function missingRequired(fields: Field[], args: Record<string, unknown>): string[] {
  return fields.filter((f) => f.required && args[f.path.at(-1)!] === undefined).map((f) => f.path.at(-1)!);
}
