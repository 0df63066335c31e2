// Every generated guard (src/generated/operation-guards.<group>.ts, plain functions, no zod) held to its zod
// schema: over valid samples (the sandbox's seeded records of every kind, the hand-written records of
// samples.ts, samples built from each params schema) and systematic mutations of them, `guard(value)` must
// equal zod's verdict, both the check the SDK ran before guards (validation.ts: zod's compiled assert-only
// check) and zod's own `safeParse`. A guard that accepted what zod refuses would let a bad answer through
// unnamed; one that refused what zod accepts would only cost a load of zod, but is a bug all the same.
import { describe, expect, it } from 'vitest';
import { safeParse } from 'zod/mini';
import type { Guard } from '../../src/core/api/operation.js';
import { everyItem } from '../../src/core/validation/lazy-validation.js';
import { check, checkList, validate } from '../../src/core/validation/validation.js';
import { OPERATION_GUARDS } from '../../src/generated/operation-guards.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { operations } from '../../src/generated/operations.js';
import type { z } from '../../src/internal/schema-types.js';
import { createSandbox } from '../../src/testing/index.js';
import { REFERENCE_RESERVATION_STATUSES } from '../support/reference.js';
import { samples } from './samples.js';

type Id = keyof typeof OPERATION_SCHEMAS;
const ids = Object.keys(operations) as Id[];

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: z.ZodType[];
  readonly values?: unknown[];
  readonly format?: string;
  readonly in?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** A value the schema accepts, built from its public `def`: every optional field present when `full`. */
function build(schema: z.ZodType, full: boolean, depth = 0): unknown {
  const def = defOf(schema);
  if (depth > 12) throw new Error('schema too deep for a sample');
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return build(def.innerType!, full, depth + 1);
    case 'pipe':
      return build(def.in!, full, depth + 1);
    case 'union':
      return build(def.options![0]!, full, depth + 1);
    case 'array':
      return [build(def.element!, full, depth + 1)];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        if (!full && defOf(field).type === 'optional') continue;
        out[key] = build(field, full, depth + 1);
      }
      return out;
    }
    case 'string':
      return def.format === 'datetime'
        ? '2026-10-01T10:00:00Z'
        : def.format === 'date'
          ? '2026-01-31'
          : 'text';
    case 'number':
      return 3;
    case 'boolean':
      return true;
    case 'literal':
      return def.values![0];
    case 'date':
      return new Date('2026-10-01T10:00:00Z');
    case 'unknown':
      return { anything: 1 };
    default:
      throw new Error(`no sample for a ${def.type} schema`);
  }
}

/** The values put in place of a field, an item or the whole value. */
const REPLACEMENTS: readonly unknown[] = [
  null,
  undefined,
  0,
  -0,
  7,
  -3,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  '',
  'text',
  'a_value_added_later',
  ...REFERENCE_RESERVATION_STATUSES,
  true,
  false,
  {},
  { id: 1 },
  [],
  [1],
  ['text'],
  [{}],
  new Date('2026-10-01T10:00:00Z'),
  new Date(Number.NaN),
  // date-times: valid, with fractions, offsets, no Z, bad calendar and clock values
  '2026-10-01T10:00:00Z',
  '2026-10-01T10:00:00.123456Z',
  '2026-10-01T10:00:00+02:00',
  '2026-10-01T10:00:00',
  '2026-10-01 10:00:00Z',
  '2026-10-01T10:00Z',
  '2026-10-01T24:00:00Z',
  '2026-10-01T10:60:00Z',
  '2026-10-01T10:00:60Z',
  '2026-02-30T10:00:00Z',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2026-10-01T10:00:00.Z',
  '2026-10-01T10:00:00z',
  ' 2026-10-01T10:00:00Z',
  '2026-10-01T10:00:00Z\n',
  // dates
  '2026-01-31',
  '2026-04-31',
  '2024-02-29',
  '2023-02-29',
  '2026-13-01',
  '2026-1-31',
  '20260131',
  '2026-01-31T00:00:00Z',
];

/** `value` and its mutations: each field (nested ones too) removed, replaced, and each object given an extra key. */
function* mutations(value: unknown, depth = 0): Generator<unknown> {
  if (depth === 0) {
    yield value;
    yield* REPLACEMENTS;
    yield [value];
  }
  if (depth > 3) return;
  if (Array.isArray(value)) {
    yield [];
    yield [...value, ...value];
    // biome-ignore lint/suspicious/noSparseArray: a hole reads as undefined, as zod reads it
    yield [, ...value];
    if (value.length === 0) return;
    for (const replacement of [...REPLACEMENTS, ...mutations(value[0], depth + 1)])
      yield [replacement, ...value.slice(1)];
    return;
  }
  if (typeof value !== 'object' || value === null || value instanceof Date) return;
  const record = value as Record<string, unknown>;
  yield { ...record, added_later: 1 };
  yield JSON.parse(`{"__proto__": 1, ${JSON.stringify(record).slice(1)}`.replace(', }', '}'));
  for (const key of Object.keys(record)) {
    const { [key]: _removed, ...without } = record;
    yield without;
    for (const replacement of REPLACEMENTS) yield { ...record, [key]: replacement };
    for (const nested of mutations(record[key], depth + 1)) yield { ...record, [key]: nested };
  }
}

/** What the sandbox answers to every GET of the table: records of every kind its seed holds. */
async function sandboxAnswers(): Promise<Map<Id, unknown[]>> {
  const sandbox = createSandbox({ seed: 21 });
  const key = sandbox.createKey();
  const get = async (path: string): Promise<unknown> => {
    const response = await sandbox.fetch(`${sandbox.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (!response.ok) return undefined;
    return ((await response.json()) as { data?: unknown }).data;
  };
  const answers = new Map<Id, unknown[]>();
  const lists = new Map<string, unknown[]>();
  for (const id of ids) {
    const op = operations[id];
    if (op.method !== 'GET' || op.pathParams.length > 0) continue;
    const data = await get(`${op.path}${op.pagination ? '?limit=200' : ''}`);
    if (data === undefined) continue;
    const items = op.pagination && Array.isArray(data) ? data : [data];
    answers.set(id, items);
    if (op.pagination) lists.set(op.path, items);
  }
  for (const id of ids) {
    const op = operations[id];
    if (op.method !== 'GET' || op.pathParams.length !== 1 || !op.path.endsWith('/{id}')) continue;
    const list = lists.get(op.path.slice(0, -'/{id}'.length)) ?? [];
    const found: unknown[] = [];
    for (const item of list.slice(0, 3)) {
      const data = await get(op.path.replace('{id}', String((item as { id: unknown }).id)));
      if (data !== undefined) found.push(data);
    }
    if (found.length > 0) answers.set(id, found);
  }
  return answers;
}

function distinctShapes(items: readonly unknown[], max: number): unknown[] {
  const seen = new Map<string, unknown>();
  for (const item of items) {
    const shape =
      typeof item === 'object' && item !== null
        ? Object.entries(item)
            .map(([k, v]) => `${k}:${v === null ? 'null' : Array.isArray(v) ? `a${v.length > 0}` : typeof v}`)
            .join(',')
        : typeof item;
    if (!seen.has(shape)) seen.set(shape, item);
  }
  return [...seen.values()].slice(0, max);
}

describe('generated guards', () => {
  it('exist for every operation, with a query, body and result guard exactly where a schema is', () => {
    for (const id of ids) {
      const schemas = OPERATION_SCHEMAS[id];
      const guards = OPERATION_GUARDS[id] as {
        query: Guard | null;
        body: Guard | null;
        result: Guard | null;
      };
      expect(guards, id).toBeDefined();
      expect(guards.query === null, `${id} query`).toBe(schemas.query === null);
      expect(guards.body === null, `${id} body`).toBe(schemas.body === null);
      // A null result guard stands for a schema that accepts anything (z.unknown()).
      if (guards.result === null) expect(defOf(schemas.result as z.ZodType).type, id).toBe('unknown');
    }
  });

  it('accept exactly what the zod schemas accept, over valid samples and their mutations', async () => {
    const answers = await sandboxAnswers();
    // Every record kind: the sandbox's answers and the hand-written samples, offered to every result guard.
    const pool = [
      ...[...answers.values()].flatMap((items) => distinctShapes(items, 2)),
      ...Object.values(samples),
    ];
    let checked = 0;
    let accepted = 0;
    const disagreements: string[] = [];
    const compare = (
      id: string,
      part: string,
      guard: Guard | null,
      verdicts: (v: unknown) => boolean[],
      value: unknown,
    ) => {
      const [zod, ...others] = verdicts(value);
      for (const other of others)
        if (other !== zod) throw new Error(`zod's verdicts differ on ${id} ${part}`);
      const mine = guard === null ? true : guard(value);
      checked += 1;
      if (zod) accepted += 1;
      if (mine !== zod && disagreements.length < 20)
        disagreements.push(
          `${id} ${part}: guard ${mine}, zod ${zod} on ${String(JSON.stringify(value)).slice(0, 300)}`,
        );
    };

    for (const id of ids) {
      const schemas = OPERATION_SCHEMAS[id];
      const guards = OPERATION_GUARDS[id] as {
        query: Guard | null;
        body: Guard | null;
        result: Guard | null;
      };
      for (const part of ['query', 'body'] as const) {
        const schema = schemas[part] as z.ZodType | null;
        if (!schema) continue;
        const verdicts = (v: unknown) => [validate(schema, v) === null, safeParse(schema, v).success];
        for (const base of [build(schema, true), build(schema, false)])
          for (const value of mutations(base)) compare(id, part, guards[part], verdicts, value);
      }
      const result = schemas.result as z.ZodType;
      const verdicts = (v: unknown) => [check(result, v, true).ok, safeParse(result, v).success];
      const own = distinctShapes(answers.get(id) ?? [], 2);
      const bases =
        defOf(result).type === 'unknown' ? [{ any: 1 }] : [build(result, true), build(result, false), ...own];
      for (const base of bases)
        for (const value of mutations(base)) compare(id, 'result', guards.result, verdicts, value);
      for (const value of pool) compare(id, 'result', guards.result, verdicts, value);
      // A page: the runtime checks `data` as an array of items, each by the result guard.
      if (operations[id].pagination) {
        const items = own.length > 0 ? own : [build(result, true)];
        const page = (v: unknown) => [checkList(result, v, true).ok];
        const listGuard = (v: unknown) => everyItem(guards.result, v);
        for (const value of mutations(items, 0)) compare(id, 'page', listGuard, page, value);
      }
    }
    console.log(`guards checked against zod on ${checked} samples (${accepted} accepted by zod)`);
    expect(disagreements).toEqual([]);
    expect(answers.size).toBeGreaterThanOrEqual(20);
    expect(checked).toBeGreaterThan(150_000);
    // Both verdicts occur in quantity: the samples are neither all valid nor all broken.
    expect(accepted).toBeGreaterThan(20_000);
    expect(checked - accepted).toBeGreaterThan(50_000);
  }, 600_000);
});
