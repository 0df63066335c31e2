import { describe, expect, it, vi } from 'vitest';
import { type OperationId, operations } from '../../src/generated/operations.js';
import { SandboxApiError } from '../../src/testing/errors.js';
import { ROUTES } from '../../src/testing/features/routes.js';
import { couponRules } from '../../src/testing/features/sales/coupons.js';
import type { RouteContext } from '../../src/testing/http/route.js';
import { RouteTable } from '../../src/testing/http/route-table.js';
import { nounOf, ruleRoute } from '../../src/testing/http/rule-routes.js';
import { call, newSandbox } from './helpers.js';

// features/routes.ts is generated (scripts/generator/sandbox-routes.ts): every route group and domain rule
// table under features/ is found, none is listed by hand. These tests hold what it finds to the spec.

const ids = Object.keys(operations) as OperationId[];

/** The operation's path with each `{param}` filled in. */
const concrete = (id: OperationId) => operations[id].path.replace(/\{[^}]+\}/g, '7');

/** The operations the route table does not answer with their own route (none, or the wrong one). */
function unserved(table: RouteTable): OperationId[] {
  return ids.filter((id) => {
    const match = table.match(operations[id].method, concrete(id));
    return match.kind !== 'found' || match.route.path !== operations[id].path;
  });
}

describe('the sandbox’s routes (features/routes.ts, found by `npm run generate`)', () => {
  it('serve every operation of the spec at its own route, once, and nothing else', () => {
    expect(ids.length).toBeGreaterThan(50);
    expect(unserved(new RouteTable(ROUTES)), 'operations with no sandbox route').toEqual([]);
    const served = ROUTES.map((route) => `${route.method} ${route.path}`);
    const specified = ids.map((id) => `${operations[id].method} ${operations[id].path}`);
    expect(served.filter((route) => !specified.includes(route))).toEqual([]);
    expect(served.filter((route, index) => served.indexOf(route) !== index)).toEqual([]);
  });

  it('the check names an operation whose route is missing (so a clean result means something)', () => {
    const withoutDelete = ROUTES.filter(
      (route) => route.path !== '/v1/coupons/{id}' || route.method !== 'DELETE',
    );
    expect(unserved(new RouteTable(withoutDelete))).toEqual(['coupons.delete']);
  });

  it('include the domain rule tables: coupons.delete is served from coupons.ts, over HTTP', async () => {
    expect(couponRules['coupons.delete']).toBeTypeOf('function');
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const deleted = await call(sandbox, 'DELETE', '/v1/coupons/1', { key });
    expect([deleted.status, deleted.json.data]).toEqual([200, { object: 'coupon', id: 1, deleted: true }]);
    const again = await call(sandbox, 'DELETE', '/v1/coupons/1', { key });
    expect([again.status, again.json.error.code]).toEqual([404, 'NOT_FOUND']);
    // An id that is not a positive integer is 404 before the rule runs, named by the path.
    const malformed = await call(sandbox, 'DELETE', '/v1/coupons/abc', { key });
    expect([malformed.status, malformed.json.error.message]).toEqual([404, 'No such coupon']);
    const readOnly = sandbox.createKey({ permissions: ['coupons:read'] });
    const refused = await call(sandbox, 'DELETE', '/v1/coupons/2', { key: readOnly });
    expect([refused.status, refused.json.error.details]).toEqual([403, { required: 'coupons:write' }]);
  });
});

describe('a route around a domain rule (http/rule-routes.ts)', () => {
  const context = (body: Record<string, unknown>, id = '3'): RouteContext =>
    ({
      sandbox: { marker: 'world' },
      key: { locations: new Set([2]) },
      params: { id },
      query: new URLSearchParams(),
      body,
      now: '2026-10-01T15:20:00Z',
    }) as unknown as RouteContext;

  it('takes method, path, permission and body rules from the generated tables, and answers at its success status', async () => {
    const rule = vi.fn(() => ({ object: 'membership', id: 3 }));
    const route = ruleRoute('memberships.cancel', rule);
    expect(route).toMatchObject({
      method: 'POST',
      path: '/v1/memberships/{id}/cancel',
      permission: 'memberships:write',
      body: { reason: { type: 'string' }, at_period_end: { type: 'boolean' } },
    });
    const result = await route.handle(context({ reason: 'moving', at_period_end: true }));
    expect(result).toEqual({ status: 200, data: { object: 'membership', id: 3 } });
    expect(rule).toHaveBeenCalledWith(
      { marker: 'world' },
      {
        actor: { locations: new Set([2]) },
        path: { id: 3 },
        body: { reason: 'moving', at_period_end: true },
        query: {},
      },
    );
  });

  it('refuses a bad body as one 400 naming each field, and a malformed id as 404, before the rule runs', async () => {
    const rule = vi.fn();
    const route = ruleRoute('memberships.cancel', rule);
    const bad = await Promise.resolve()
      .then(() => route.handle(context({ reason: 7, at_period_end: 'yes' })))
      .catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(SandboxApiError);
    expect(bad).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { reason: ['must be a string'], at_period_end: ['must be true or false'] },
    });
    const missing = await Promise.resolve()
      .then(() => route.handle(context({}, 'x7')))
      .catch((error: unknown) => error);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', message: 'No such membership' });
    expect(rule).not.toHaveBeenCalled();
  });

  it('refuses a cursor list at load (a list is a listRoute)', () => {
    expect(() => ruleRoute('returns.list' as never, () => null)).toThrow(
      "sandbox rule returns.list: a list is a listRoute in its feature's routes file",
    );
  });

  it('names the record of a path’s id for its 404', () => {
    expect(nounOf('/v1/gift-certificates/{id}/redeem')).toBe('gift certificate');
    expect(nounOf('/v1/range/reservations/{id}')).toBe('reservation');
    expect(nounOf('/v1/customers/{id}/store-credit/issue')).toBe('customer');
    expect(nounOf('/v1/categories/{id}')).toBe('category');
  });
});
