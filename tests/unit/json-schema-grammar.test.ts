import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '@shared/errors';
import { grammarSchema } from '../../electron/main/services/engines/local/json-schema';

const refusal = (schema: unknown): string => {
  try {
    grammarSchema(schema, 'the schema');
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).details).toEqual({ wireCode: 'invalid_schema' });
    return (e as AppError).message;
  }
  throw new Error('not refused');
};

describe("JSON Schema in node-llama-cpp's grammar form", () => {
  it('keeps what the grammar enforces and drops annotations', () => {
    const schema = z.toJSONSchema(
      z.object({
        name: z.string().min(1).max(20).describe('Who'),
        when: z.iso.date(),
        role: z.enum(['a', 'b']),
        tags: z.array(z.string()).max(3),
        pair: z.tuple([z.number(), z.boolean()]),
        note: z.string().nullable(),
      }),
    );
    expect(grammarSchema(schema, 'x')).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who', minLength: 1, maxLength: 20 },
        when: { type: 'string', format: 'date' },
        role: { enum: ['a', 'b'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'boolean' }], minItems: 2, maxItems: 2 },
        note: { oneOf: [{ type: 'string' }, { type: 'null' }] },
      },
    });
  });

  it('reads definitions as $defs, anyOf as oneOf, several types as one alternative each', () => {
    expect(
      grammarSchema(
        {
          definitions: { Id: { type: 'integer' } },
          type: 'object',
          properties: { id: { $ref: '#/definitions/Id' }, v: { type: ['string', 'array'], items: { const: 1 } } },
        },
        'x',
      ),
    ).toEqual({
      $defs: { Id: { type: 'integer' } },
      type: 'object',
      properties: {
        id: { $ref: '#/$defs/Id' },
        v: { oneOf: [{ type: 'string' }, { type: 'array', items: { const: 1 } }] },
      },
    });
  });

  it('spells out "any value" and "any object", which the grammar would otherwise read as null and {}', () => {
    const any = grammarSchema({}, 'x');
    expect(any.oneOf).toHaveLength(3);
    expect(grammarSchema({ type: 'object' }, 'x')).toEqual({ type: 'object', additionalProperties: true });
    expect(grammarSchema({ type: 'object', additionalProperties: false }, 'x')).toEqual({
      type: 'object',
      additionalProperties: false,
    });
  });

  it('refuses what it cannot enforce, naming the part and saying what to do', () => {
    expect(refusal({ type: 'object', properties: { age: { type: 'integer', minimum: 0 } } })).toMatch(
      /^'properties\.age\.minimum' in the schema cannot be enforced by the grammar: .*Remove or simplify that part\.$/,
    );
    expect(refusal({ type: 'string', pattern: '^a' })).toContain("'pattern' in the schema");
    expect(refusal({ type: 'string', format: 'email' })).toContain('"email" cannot be enforced');
    expect(refusal({ allOf: [{ type: 'string' }, { maxLength: 2 }] })).toContain("'allOf'");
    expect(refusal({ $ref: 'https://example.com/s.json' })).toContain('outside the schema');
    expect(refusal({ type: 'array', items: { type: 'number', multipleOf: 2 } })).toContain("'items.multipleOf'");
    expect(refusal({ type: 'date' })).toContain('"date" is not a JSON type');
    expect(refusal({ enum: [{ a: 1 }] })).toContain("'enum.0'");
  });
});
