import { describe, expect, it } from 'vitest';
import {
  defaultValues,
  fromArguments,
  missingRequired,
  planForm,
  toArguments,
  type Field,
} from '../../renderer/src/lib/schema-form';

/** A schema of the kinds MCP servers publish (the filesystem and fetch servers', pydantic's optionals). */
const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to look for.' },
    site: { type: 'string', format: 'uri' },
    sort: { type: 'string', enum: ['relevance', 'date'], default: 'relevance' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    score: { type: 'number' },
    safe: { type: 'boolean', default: true },
    verbose: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    ids: { type: 'array', items: { type: 'integer' } },
    filter: {
      type: 'object',
      description: 'Narrow the results.',
      properties: { lang: { type: 'string' }, year: { type: 'integer' } },
      required: ['lang'],
    },
    maybe: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Maybe' },
    choice: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    edits: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
  },
  required: ['query', 'limit'],
};

const plan = planForm(schema);
const fields = 'fields' in plan ? plan.fields : [];
const byName = (name: string) => fields.find((f) => f.path.at(-1) === name)!;

describe('planForm: a JSON Schema as form fields', () => {
  it('gives each kind its own field, and what a form cannot say a JSON field', () => {
    const kinds = Object.fromEntries(fields.map((f) => [f.path.at(-1), f.kind]));
    expect(kinds).toEqual({
      query: 'text',
      site: 'url',
      sort: 'select',
      limit: 'number',
      score: 'number',
      safe: 'boolean',
      verbose: 'boolean',
      tags: 'list',
      ids: 'list',
      filter: 'object',
      maybe: 'text',
      choice: 'json',
      edits: 'json',
    });
    expect(byName('query')).toMatchObject({ required: true, hint: 'What to look for.' });
    expect(byName('limit')).toMatchObject({ integer: true, min: 1, max: 50, required: true });
    expect(byName('sort').options!.map((o) => o.label)).toEqual(['relevance', 'date']);
    expect(byName('maybe').label).toBe('Maybe');
    const filter = byName('filter');
    expect(filter.fields!.map((f) => [f.path.join('.'), f.kind, f.required])).toEqual([
      ['filter.lang', 'text', true],
      ['filter.year', 'number', false],
    ]);
  });

  it('leaves the whole call to the raw editor when the schema is not an object of properties', () => {
    expect(planForm({ oneOf: [{ type: 'object' }, { type: 'object' }] })).toHaveProperty('raw');
    expect(planForm({ $ref: '#/definitions/Args' })).toHaveProperty('raw');
    expect(planForm({ type: 'array' })).toHaveProperty('raw');
    expect(planForm({ type: 'object', additionalProperties: { type: 'string' } })).toHaveProperty('raw');
    expect(planForm({ type: 'object' })).toEqual({ fields: [] });
  });
});

describe('form values ⇄ arguments', () => {
  it('prefills defaults and sends only what was filled in, typed as the schema says', () => {
    const values = defaultValues(fields);
    expect(values).toMatchObject({ sort: 'relevance', limit: '10', safe: true, verbose: false, query: '' });
    const filled = {
      ...values,
      query: 'llama',
      site: 'https://huggingface.co',
      score: '0.5',
      tags: 'a, b\nc d\n\n',
      ids: '1, 2\n3',
      filter: { lang: 'en', year: '' },
      choice: '42',
    };
    const { args, errors } = toArguments(fields, filled);
    expect(errors).toEqual({});
    expect(args).toEqual({
      query: 'llama',
      site: 'https://huggingface.co',
      sort: 'relevance',
      limit: 10,
      score: 0.5,
      safe: true,
      tags: ['a, b', 'c d'],
      ids: [1, 2, 3],
      filter: { lang: 'en' },
      choice: 42,
    });
  });

  it('says in words what is wrong, at each field, and still carries the typed value', () => {
    const values = {
      ...defaultValues(fields),
      limit: '99',
      site: 'huggingface.co',
      ids: '1, x',
      filter: { lang: '', year: '2.5' },
      edits: '[{',
    };
    const { args, errors } = toArguments(fields, values);
    expect(errors).toEqual({
      query: 'Required: fill this in.',
      limit: 'This must be at most 50.',
      site: 'Not a full address: it should start with https:// or similar.',
      ids: 'Item 2 (x) is not a number.',
      'filter.lang': 'Required: fill this in.',
      'filter.year': 'This must be a whole number.',
      edits: expect.stringMatching(/^Not valid JSON: /),
    });
    expect(args.limit).toBe(99);
    expect(args.site).toBe('huggingface.co');
  });

  it('an optional object left empty is not sent; a required checkbox is sent unchecked', () => {
    const values = { ...defaultValues(fields), query: 'q' };
    expect(toArguments(fields, values).args).not.toHaveProperty('filter');
    const p = planForm({ type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] });
    const onField: Field[] = 'fields' in p ? p.fields : [];
    expect(toArguments(onField, defaultValues(onField)).args).toEqual({ on: false });
  });

  it('round-trips raw JSON through the form, keeping keys the schema does not name', () => {
    const args = {
      query: 'q',
      limit: 3,
      sort: 'date',
      safe: false,
      tags: ['x', 'y'],
      filter: { lang: 'fr', year: 2024 },
      choice: { any: ['thing'] },
      other: 1,
    };
    const { values, extra } = fromArguments(fields, args);
    expect(extra).toEqual({ other: 1 });
    expect(values.tags).toBe('x\ny');
    const back = toArguments(fields, values, extra);
    expect(back.errors).toEqual({});
    expect(back.args).toEqual(args);
  });

  it('names the required arguments raw JSON lacks', () => {
    expect(missingRequired(fields, { query: 'q' })).toEqual(['limit']);
  });
});
