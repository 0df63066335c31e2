import { describe, expect, it } from 'vitest';
import { emitRequestRules } from '../../scripts/generator/emit-request-rules.js';
import { buildModel } from '../../scripts/generator/model.js';
import type { OpenApiDocument } from '../../scripts/generator/spec.js';

// request-rules.ts is the spec's word on what a request may hold, as data the sandbox reads every request by.
// These cases are small specs written here, so each rule of the emitter is shown on its own.

const ok = {
  '200': {
    description: 'ok',
    content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'object' } } } } },
  },
};

/** The two tables the emitter writes for one operation, read back as data (the literals are plain JS). */
function rules(operation: Record<string, unknown>): { query: unknown; body: unknown } {
  const doc = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/v1/things': { post: { operationId: 'things.create', responses: ok, ...operation } } },
  } as unknown as OpenApiDocument;
  const source = emitRequestRules(doc, buildModel(doc).operations);
  const table = (name: string) => {
    const literal = source.split(`export const ${name} = `)[1]!.split(' as const')[0]!;
    return (new Function(`return ${literal}`)() as Record<string, unknown>)['things.create'];
  };
  return { query: table('REQUEST_QUERIES'), body: table('REQUEST_BODIES') };
}

const body = (schema: unknown) => ({ requestBody: { content: { 'application/json': { schema } } } });

describe('request-rules.ts', () => {
  it('merges the forms of a oneOf body: a field is required only where every form requires it', () => {
    const source = rules(
      body({
        oneOf: [
          {
            type: 'object',
            required: ['lanes', 'party'],
            properties: {
              lanes: { type: 'array', minItems: 1, items: { type: 'integer' } },
              party: { type: 'integer', minimum: 1 },
            },
          },
          {
            type: 'object',
            required: ['session', 'party'],
            properties: { session: { type: 'integer' }, party: { type: 'integer', minimum: 1 } },
          },
        ],
      }),
    );
    expect(source.body).toEqual({
      lanes: { type: 'array', minItems: 1, items: { type: 'integer' } },
      party: { required: true, type: 'integer', minimum: 1 },
      session: { type: 'integer' },
    });
  });

  it('keeps formats, nullability, nested objects, patterns and the code a pattern is refused with', () => {
    const source = rules(
      body({
        type: 'object',
        properties: {
          code: { type: 'string', pattern: '^[A-Z]{6}$', 'x-refusal': 'CODE_INVALID' },
          email: { type: 'string', format: 'email' },
          limit: { type: ['integer', 'null'] },
          guest: { type: 'object', properties: { when: { type: 'string', format: 'date-time' } } },
          hours: { description: 'any shape' },
        },
      }),
    );
    expect(source.body).toEqual({
      code: { type: 'string', pattern: '^[A-Z]{6}$', refusal: 'CODE_INVALID' },
      email: { type: 'string', format: 'email' },
      limit: { type: 'integer', nullable: true },
      guest: { type: 'object', properties: { when: { type: 'string', format: 'date-time' } } },
      hours: {},
    });
    expect(source.query).toBeUndefined();
  });

  it('reads a query parameter sent as one value or a list as a list, and marks required ones', () => {
    const source = rules({
      parameters: [
        {
          name: 'kind',
          in: 'query',
          schema: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        },
        { name: 'from', in: 'query', required: true, schema: { type: 'string', format: 'date-time' } },
      ],
    });
    expect(source.query).toEqual({
      kind: { type: 'array', items: { type: 'string' } },
      from: { required: true, type: 'string', format: 'date-time' },
    });
    expect(source.body).toBeUndefined();
  });

  it('stops on a field two forms describe differently, or a field of several types', () => {
    expect(() =>
      rules(
        body({
          oneOf: [
            { type: 'object', properties: { party: { type: 'integer' } } },
            { type: 'object', properties: { party: { type: 'string' } } },
          ],
        }),
      ),
    ).toThrow('things.create: field party is described differently in two forms of the body');
    expect(() => rules(body({ type: 'object', properties: { x: { type: ['integer', 'string'] } } }))).toThrow(
      'things.create.x: a body field of several types (integer, string)',
    );
  });
});
