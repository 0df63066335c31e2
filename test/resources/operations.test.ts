import { describe, expect, it } from 'vitest';
import { Page } from '../../src/core/api/pagination.js';
import { ParamsValidationError } from '../../src/core/errors/index.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { operations } from '../../src/generated/operations.js';
import { client, mockApi, ok, UUID_V4 } from './helpers.js';
import { OPERATION_CASES, type OperationCase } from './operation-table.js';

const api = mockApi();

function answer(row: OperationCase) {
  const op = operations[row.id];
  if (op.pagination === 'cursor')
    return ok([row.data], { meta: { limit: 50, has_more: false, next_cursor: null } });
  if (row.id === 'range.availability.list') return ok(row.data, { meta: { count: 1 } });
  return ok(row.data, { status: op.successStatus });
}

/** The method a call path such as `customers.account.payments.create` names on a client, bound to its group. */
function methodAt(id: string): { group: Record<string, unknown>; fn: unknown } {
  const names = id.split('.');
  const last = names.pop() as string;
  let group: Record<string, unknown> = client() as unknown as Record<string, unknown>;
  for (const name of names) group = group[name] as Record<string, unknown>;
  return { group, fn: group?.[last] };
}

describe('every operation of the API', () => {
  it('has exactly one case in the table, so none goes untested', () => {
    expect(OPERATION_CASES.map((row) => row.id).sort()).toEqual(Object.keys(operations).sort());
  });

  it.each(Object.keys(operations))('is a method at shop.%s', (id) => {
    expect(typeof methodAt(id).fn).toBe('function');
  });

  it.each(OPERATION_CASES)('$id sends $method $path and resolves to the validated data', async (row) => {
    const op = operations[row.id];
    api.respond(() => answer(row));

    const result = await row.call(client());

    expect(api.requests).toHaveLength(1);
    const [sent] = api.requests;
    expect(sent?.method).toBe(row.method);
    expect(sent?.path).toBe(row.path);
    expect(sent?.query).toEqual(row.query ?? {});
    expect(sent?.body).toEqual(row.body);
    expect(sent?.headers.get('authorization')).toMatch(/^Bearer sk_test_/);
    expect(sent?.headers.get('content-type')).toBe(row.body === undefined ? null : 'application/json');
    // Every POST carries a key; for balance moves (op.idempotency 'required') the reference demands one.
    expect(sent?.headers.get('idempotency-key') ?? null).toEqual(
      row.method === 'POST' ? expect.stringMatching(UUID_V4) : null,
    );
    if (op.pagination === 'cursor') {
      expect(result).toBeInstanceOf(Page);
      expect((result as Page<unknown>).data).toEqual([row.data]);
      expect((result as Page<unknown>).hasMore).toBe(false);
    } else {
      expect(result).toEqual(row.data);
    }
  });
});

const withPathId = OPERATION_CASES.filter((row) => operations[row.id].pathParams.length > 0);

describe('path ids', () => {
  it.each(withPathId)('$id refuses a non-integer id locally and sends nothing', async (row) => {
    for (const bad of [1.5, Number.NaN, '12/../7', -0.1]) {
      const { group, fn } = methodAt(row.id);
      const args: unknown[] = [bad];
      if (OPERATION_SCHEMAS[row.id].body) args.push(row.body ?? {});
      const call = (fn as (...a: unknown[]) => PromiseLike<unknown>).apply(group, args);
      const error = await Promise.resolve(call).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ParamsValidationError);
      expect((error as ParamsValidationError).details).toHaveProperty('id');
    }
    expect(api.requests).toHaveLength(0);
  });
});
