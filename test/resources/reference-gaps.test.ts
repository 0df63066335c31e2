import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parse } from 'yaml';
import type { ShopClient } from '../../src/client.js';
import type { DocumentedOperation } from '../../src/core/api/operation.js';
import { ParamsValidationError } from '../../src/core/errors/index.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { operations } from '../../src/generated/operations.js';
import { parseInEnglish } from '../support/english.js';
import { PARTLY_SHOWN_OPERATIONS, REFERENCE_CODES, REFERENCE_OPERATIONS } from '../support/reference.js';
import { client, mockApi, ok } from './helpers.js';

const ops = operations as Record<string, DocumentedOperation>;
/** Text with its line breaks and indentation folded, so a wrapped phrase still reads as one. */
const folded = (text: string) => text.replace(/\s+/g, ' ');
interface SpecOperation {
  readonly operationId?: string;
  readonly description?: string;
  /** Per error code, the note the generated doc comment prints after it. */
  readonly 'x-error-notes'?: Record<string, string>;
}
const spec = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, SpecOperation>>;
};
const specOperations = new Map(
  Object.values(spec.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => typeof op.operationId === 'string')
    .map((op) => [op.operationId, op] as const),
);
const INFERRED = 'inferred, not listed by the reference';

/** The codes the spec gives an operation beyond those the reference ties to it. */
function inferredCodes(id: string): string[] {
  const listed = new Set(REFERENCE_CODES[id]);
  return (ops[id]?.errorCodes ?? []).filter((code) => !listed.has(code));
}

describe('error codes the reference does not list for an endpoint', () => {
  it('the hand-copied table covers every operation the reference names', () => {
    // An operation the spec adds beyond the copied reference has no row: its codes are the spec's alone.
    expect(Object.keys(REFERENCE_CODES).sort()).toEqual(REFERENCE_OPERATIONS.map(([, , id]) => id).sort());
    expect(Object.keys(ops)).toEqual(expect.arrayContaining(Object.keys(REFERENCE_CODES)));
  });

  it.each(Object.keys(REFERENCE_CODES))('%s lists every code the reference ties to it', (id) => {
    expect(ops[id]?.errorCodes).toEqual(expect.arrayContaining([...(REFERENCE_CODES[id] ?? [])]));
  });

  const withInferred = Object.keys(REFERENCE_CODES).filter((id) => inferredCodes(id).length > 0);
  it.each(withInferred)('%s marks each code it infers in the spec: description and error note', (id) => {
    const op = specOperations.get(id);
    const description = folded(op?.description ?? '');
    for (const code of inferredCodes(id)) {
      // One sentence of the description names the code and says it is inferred.
      const sentence = description.split(/(?<=\.)\s+/).find((text) => text.includes(code));
      expect(sentence, `${id}: spec description on ${code}`).toContain(INFERRED);
      // The note the generated doc comment prints after the code (test/resources/generated-docs.test.ts).
      expect(op?.['x-error-notes']?.[code], `${id}: x-error-notes on ${code}`).toMatch(
        new RegExp(`^${INFERRED}`),
      );
    }
  });

  it.each(Object.keys(REFERENCE_CODES))('%s notes no code the reference ties to it as inferred', (id) => {
    const notes = specOperations.get(id)?.['x-error-notes'] ?? {};
    for (const code of REFERENCE_CODES[id] ?? [])
      expect(notes[code] ?? '', `${id}: ${code}`).not.toContain(INFERRED);
  });
});

describe('the partly shown endpoints (Inventory sync and purchasing)', () => {
  it.each(PARTLY_SHOWN_OPERATIONS)(
    '%s keeps its params open: the reference does not show them whole',
    (id) => {
      expect(ops[id]?.undocumented).toBe(true);
      const schema =
        OPERATION_SCHEMAS[id as keyof typeof OPERATION_SCHEMAS].query ??
        OPERATION_SCHEMAS[id as keyof typeof OPERATION_SCHEMAS].body;
      if (schema) {
        // A field it does not name is never the one refused (a missing required one may still be).
        const result = parseInEnglish(schema, { some_future_field: 'x' });
        const refused = result.success
          ? []
          : result.error.issues.filter((i) => i.code === 'unrecognized_keys');
        expect(refused).toEqual([]);
      }
    },
  );

  const api = mockApi();
  const page = { meta: { limit: 50, has_more: false, next_cursor: null } };
  const since = '2026-10-01T00:00:00.000Z';

  it.each([
    ['locations.list', (shop: ShopClient) => shop.locations.list({ limit: 20, region: 'west' })],
    [
      'inventory.list',
      (shop: ShopClient) =>
        shop.inventory.list({ updated_since: new Date(since), limit: 200, location_id: 3 }),
    ],
  ] as const)('%s sends a filter the reference does not name, beside the named ones', async (id, call) => {
    api.respond(() => ok([], page));
    await call(client());
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]?.path).toBe(ops[id]?.path);
    expect(api.requests[0]?.query).toEqual(
      id === 'locations.list'
        ? { limit: '20', region: 'west' }
        : { updated_since: since, limit: '200', location_id: '3' },
    );
  });

  it.each([
    ['locations.list', (shop: ShopClient) => shop.locations.list({ limit: '20' as never }), 'limit'],
    [
      'inventory.list',
      (shop: ShopClient) => shop.inventory.list({ updated_since: 17 as never }),
      'updated_since',
    ],
  ] as const)(
    '%s still refuses a named filter of the wrong type, and sends nothing',
    async (_id, call, field) => {
      const error = await Promise.resolve(call(client())).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ParamsValidationError);
      expect(Object.keys((error as ParamsValidationError).details)).toContain(field);
      expect(api.requests).toHaveLength(0);
    },
  );

  it('types the named filters and lets others through', () => {
    type InventoryParams = NonNullable<Parameters<ShopClient['inventory']['list']>[0]>;
    expectTypeOf<InventoryParams['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<{ location_id: number }>().toExtend<InventoryParams>();
    type LocationParams = NonNullable<Parameters<ShopClient['locations']['list']>[0]>;
    expectTypeOf<{ region: string }>().toExtend<LocationParams>();
  });
});
