import { AppError } from '@shared/errors';

// A JSON Schema (as OpenAI clients, zod-to-json-schema and the AI SDK write them) as node-llama-cpp's grammar takes
// it. The grammar enforces types, enums, consts, unions, string lengths and date formats, array lengths and
// references; whatever else a schema asks (a minimum, a pattern, an email format…) it cannot enforce, and rather than
// answer JSON that breaks the schema the request is refused, naming the part. Annotations are dropped.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, Json>;

/** Keys that describe without constraining: dropped (a description stays: function calling shows it to the model). */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'nullable',
  'strict',
]);
const PRIMITIVES = ['string', 'number', 'integer', 'boolean', 'null'];
const FORMATS = new Set(['date-time', 'time', 'date']);
const KEPT: Record<string, Set<string>> = {
  string: new Set(['minLength', 'maxLength', 'format']),
  object: new Set(['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties']),
  array: new Set(['items', 'prefixItems', 'minItems', 'maxItems']),
};

/** Any JSON value: node-llama-cpp reads a schema without a type as `null`, so "anything" is spelled out. */
const ANY: Schema = {
  oneOf: [{ type: [...PRIMITIVES] }, { type: 'object', additionalProperties: true }, { type: 'array' }],
};

class Unenforceable extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(why);
  }
}

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

function convert(s: Json, path: string): Schema {
  if (s === true) return ANY;
  if (s === false || !isObject(s)) throw new Unenforceable(path, 'is not a schema object');
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (ANNOTATIONS.has(k)) continue;
    if (k === 'description' && typeof v === 'string') out.description = v;
  }
  if (s.$defs !== undefined || s.definitions !== undefined) {
    const defs = { ...(isObject(s.definitions) ? s.definitions : {}), ...(isObject(s.$defs) ? s.$defs : {}) };
    out.$defs = Object.fromEntries(Object.entries(defs).map(([k, d]) => [k, convert(d, at(path, `$defs.${k}`))]));
  }
  const withDefs = (x: Schema): Schema => (out.$defs ? { ...x, $defs: out.$defs } : x);
  const described = (x: Schema): Schema => (out.description ? { ...x, description: out.description } : x);

  if (typeof s.$ref === 'string') {
    const name = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(s.$ref)?.[1];
    if (!name) throw new Unenforceable(at(path, '$ref'), `points outside the schema's own $defs ("${s.$ref}")`);
    return withDefs(described({ $ref: `#/$defs/${name}` }));
  }
  for (const k of ['not', 'if', 'then', 'else', 'patternProperties', 'dependentRequired', 'dependentSchemas'])
    if (s[k] !== undefined) throw new Unenforceable(at(path, k), 'cannot be enforced by the grammar');
  // zod writes a date's pattern beside its format: the format, which the grammar enforces, says the same.
  const datePattern = typeof s.format === 'string' && FORMATS.has(s.format);
  if (s.pattern !== undefined && !datePattern)
    throw new Unenforceable(at(path, 'pattern'), 'cannot be enforced by the grammar');
  for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'])
    if (s[k] !== undefined) throw new Unenforceable(at(path, k), 'cannot be enforced by the grammar');
  for (const k of ['uniqueItems', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'])
    if (s[k] !== undefined && s[k] !== false) throw new Unenforceable(at(path, k), 'cannot be enforced by the grammar');

  const union = s.anyOf ?? s.oneOf;
  if (union !== undefined) {
    const key = s.anyOf !== undefined ? 'anyOf' : 'oneOf';
    if (!Array.isArray(union) || !union.length) throw new Unenforceable(at(path, key), 'must be a non-empty list');
    return withDefs(described({ oneOf: union.map((u, i) => convert(u, at(path, `${key}.${i}`))) }));
  }
  if (s.allOf !== undefined) {
    if (Array.isArray(s.allOf) && s.allOf.length === 1) return withDefs(convert(s.allOf[0], at(path, 'allOf.0')));
    throw new Unenforceable(at(path, 'allOf'), 'cannot be enforced with more than one schema: merge them into one');
  }
  if (s.const !== undefined) return described({ const: literal(s.const, at(path, 'const')) });
  if (s.enum !== undefined) {
    if (!Array.isArray(s.enum) || !s.enum.length) throw new Unenforceable(at(path, 'enum'), 'must be a non-empty list');
    return described({ enum: s.enum.map((v, i) => literal(v, at(path, `enum.${i}`))) });
  }

  const types = s.type === undefined ? undefined : Array.isArray(s.type) ? s.type : [s.type];
  if (!types) {
    // No type: an object or array by its keys, else any value.
    if (s.properties !== undefined || s.additionalProperties !== undefined) return typed(s, 'object', path, out);
    if (s.items !== undefined || s.prefixItems !== undefined) return typed(s, 'array', path, out);
    return withDefs(described(ANY));
  }
  for (const [i, t] of types.entries())
    if (typeof t !== 'string' || ![...PRIMITIVES, 'object', 'array'].includes(t))
      throw new Unenforceable(at(path, types.length > 1 ? `type.${i}` : 'type'), `"${String(t)}" is not a JSON type`);
  const names = types as string[];
  if (names.length === 1) return typed(s, names[0], path, out);
  // Several types: one alternative per type, so each keeps its own constraints.
  return withDefs(described({ oneOf: names.map((t) => typed(s, t, path, {})) }));
}

/** One type's schema with the constraints the grammar enforces for that type. */
function typed(s: Schema, type: string, path: string, base: Schema): Schema {
  const out: Schema = { ...base, type };
  for (const [k, v] of Object.entries(s)) {
    if (!KEPT[type]?.has(k)) continue;
    if (k === 'format') {
      if (typeof v !== 'string' || !FORMATS.has(v))
        throw new Unenforceable(at(path, 'format'), `"${String(v)}" cannot be enforced (date-time, date and time can)`);
      out.format = v;
    } else if (k === 'properties') {
      if (!isObject(v)) throw new Unenforceable(at(path, k), 'must be an object');
      out.properties = Object.fromEntries(
        Object.entries(v).map(([name, p]) => [name, convert(p, at(path, `properties.${name}`))]),
      );
    } else if (k === 'additionalProperties') {
      // With listed properties, producing only those is valid either way; without any, `true` means any object.
      if (isObject(v)) out.additionalProperties = convert(v, at(path, k));
      else if (v === true && !isObject(s.properties)) out.additionalProperties = true;
    } else if (k === 'items') {
      // `false` after prefixItems: nothing past them (zod's tuples); `true`: any items (the grammar's default).
      if (v === false) out.maxItems = Array.isArray(s.prefixItems) ? s.prefixItems.length : 0;
      else if (v === true) continue;
      else if (Array.isArray(v)) out.prefixItems = v.map((x, i) => convert(x, at(path, `items.${i}`)));
      else out.items = convert(v, at(path, k));
    } else if (k === 'prefixItems') {
      if (!Array.isArray(v)) throw new Unenforceable(at(path, k), 'must be a list');
      out.prefixItems = v.map((x, i) => convert(x, at(path, `prefixItems.${i}`)));
    } else if (k !== 'required') {
      if (typeof v !== 'number' || v < 0 || !Number.isInteger(v))
        throw new Unenforceable(at(path, k), 'must be a whole number');
      out[k] = v;
    }
  }
  // An object schema with neither properties nor additionalProperties is any object (the grammar's default is `{}`).
  if (type === 'object' && out.properties === undefined && out.additionalProperties === undefined)
    out.additionalProperties = s.additionalProperties === false ? false : true;
  return out;
}

function literal(v: Json, path: string): Json {
  if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return v;
  throw new Unenforceable(path, 'must be a string, number, boolean or null for the grammar to enforce it');
}

/**
 * The schema in node-llama-cpp's grammar form, or an AppError (invalid_input) naming the part it cannot enforce:
 * `what` says whose schema it is ("response_format.json_schema.schema", "tool get_weather's parameters").
 */
export function grammarSchema(schema: unknown, what: string): Record<string, unknown> {
  try {
    return convert(schema as Json, '');
  } catch (e) {
    if (!(e instanceof Unenforceable)) throw e;
    const part = e.path ? `'${e.path}' in ${what}` : what;
    throw new AppError(
      'invalid_input',
      `${part} ${e.why}: the built-in engine constrains replies with a grammar that follows types, enums, lengths and date formats only. Remove or simplify that part.`,
      { details: { wireCode: 'invalid_schema' } },
    );
  }
}
