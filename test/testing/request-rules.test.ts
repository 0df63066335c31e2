import { describe, expect, it } from 'vitest';
import { operations } from '../../src/generated/operations.js';
import { type FieldRule, REQUEST_BODIES } from '../../src/generated/request-rules.js';
import { ROUTES } from '../../src/testing/features/routes.js';
import { FieldReader } from '../../src/testing/http/fields.js';
import { bodyRoute, mergeRules } from '../../src/testing/http/rules.js';
import { call, newSandbox } from './helpers.js';

// The sandbox reads every JSON body by the rules the generator writes from the spec
// (src/generated/request-rules.ts): a route states only what the reference leaves to the server. These
// tests walk the generated table, so an endpoint added to the spec is covered without a line here.

type OperationId = keyof typeof operations;
const bodyOperations = Object.keys(REQUEST_BODIES) as (keyof typeof REQUEST_BODIES)[];

/** A value of the wrong type for a rule, and the problem the sandbox names for it. */
function wrongValue(rule: FieldRule): { value: unknown; message: string } | null {
  switch (rule.type) {
    case 'string':
      return {
        value: 42,
        message:
          rule.format === 'date-time'
            ? 'must be an ISO-8601 date-time, e.g. 2026-10-01T17:00:00Z'
            : 'must be a string',
      };
    case 'integer':
      return { value: 'seven', message: 'must be an integer' };
    case 'number':
      return { value: 'seven', message: 'must be a number' };
    case 'boolean':
      return { value: 'yes', message: 'must be true or false' };
    case 'array':
      return {
        value: 'a,b',
        message:
          rule.items?.type === 'integer'
            ? 'must be a list of integers'
            : rule.items?.type === 'string'
              ? 'must be a list of strings'
              : 'must be a list',
      };
    case 'object':
      return { value: 'text', message: 'must be an object' };
    default:
      return null;
  }
}

/** The operation's path with every `{param}` as 1 (the seed has a record 1 of each kind). */
function pathOf(id: OperationId): string {
  return operations[id].path.replace(/\{[^}]+\}/g, '1');
}

describe('request bodies read by the spec’s rules', () => {
  it('serves every operation that takes a body with a route that reads it by the spec’s rules', () => {
    for (const id of bodyOperations) {
      const route = ROUTES.find(
        (candidate) => candidate.path === operations[id].path && candidate.method === operations[id].method,
      );
      expect(route, id).toBeDefined();
      const rules = route!.body;
      expect(rules, `${id} is not a bodyRoute`).toBeDefined();
      for (const [name, rule] of Object.entries(REQUEST_BODIES[id] as Record<string, FieldRule>)) {
        // What the spec states holds in the route's rules; the sandbox may only add to it.
        expect(rules![name], `${id}: ${name}`).toMatchObject(rule);
      }
    }
  });

  it.each(
    bodyOperations.filter((id) =>
      Object.values(REQUEST_BODIES[id]).some((rule) => wrongValue(rule) !== null),
    ),
  )('%s: a field of the wrong type is 400 VALIDATION_ERROR naming it, over HTTP', async (id) => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const body: Record<string, unknown> = {};
    const expected: Record<string, string> = {};
    for (const [name, rule] of Object.entries(REQUEST_BODIES[id] as Record<string, FieldRule>)) {
      const wrong = wrongValue(rule);
      if (wrong === null) continue;
      body[name] = wrong.value;
      expected[name] = wrong.message;
    }
    const res = await call(sandbox, operations[id].method, pathOf(id), {
      key,
      body,
      headers: { 'Idempotency-Key': `bodies-${id}` },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(400);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
    for (const [name, message] of Object.entries(expected)) {
      expect(res.json.error.details[name], `${id}: ${name}`).toContain(message);
    }
  });

  it.each(
    bodyOperations.filter((id) => Object.values(REQUEST_BODIES[id]).some((rule) => 'required' in rule)),
  )('%s: an empty body is 400 naming every field the spec requires', async (id) => {
    const sandbox = newSandbox();
    const res = await call(sandbox, operations[id].method, pathOf(id), {
      key: sandbox.createKey(),
      body: {},
      headers: { 'Idempotency-Key': `empty-${id}` },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(400);
    for (const [name, rule] of Object.entries(REQUEST_BODIES[id] as Record<string, FieldRule>)) {
      if ('required' in rule) expect(res.json.error.details[name], `${id}: ${name}`).toContain('is required');
    }
  });

  it('checks formats, bounds, known values and nested fields, naming nested problems by their path', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const booking = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: {
        resource_ids: [],
        starts_at: '2026-10-02T17:00:00Z',
        ends_at: '2026-10-02T18:00:00Z',
        party_size: 0,
        customer: { email: 'not an address', first_name: 'Ada' },
      },
    });
    expect(booking.status).toBe(400);
    expect(booking.json.error.details).toEqual({
      resource_ids: ['must not be empty'],
      party_size: ['must be at least 1'],
      'customer.email': ['must be an email address'],
    });
    const membership = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { customer_id: 1, plan_id: 1, billing_method: 'cash' },
    });
    expect(membership.json.error.details).toEqual({ billing_method: ['must be one of link, counter'] });
    const purchaseOrder = await call(sandbox, 'POST', '/v1/purchase-orders', {
      key,
      body: { vendor_id: 1, lines: [{ sku: 'X', qty: 'two' }, 'line', { qty: 0 }] },
    });
    expect(purchaseOrder.json.error.details).toEqual({
      'lines[0].qty': ['must be an integer'],
      'lines[1]': ['must be an object'],
      'lines[2].sku': ['is required'],
      'lines[2].qty': ['must be at least 1'],
    });
  });

  it('reads a query that is not a list by the same rules: required, a bound the server adds, a comma list', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const missing = await call(sandbox, 'GET', '/v1/range/availability?party_size=0', { key });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details).toEqual({
      starts_at: ['is required'],
      ends_at: ['is required'],
      party_size: ['must be at least 1'],
    });
    const window = 'starts_at=2026-10-02T17:00:00Z&ends_at=2026-10-02T18:00:00Z';
    const lanes = await call(sandbox, 'GET', `/v1/range/availability?${window}&lane_type=rifle,pistol`, {
      key,
    });
    expect(lanes.status).toBe(200);
    const types = lanes.json.data.map((slot: { resource: { lane_type: string } }) => slot.resource.lane_type);
    expect(new Set(types)).toEqual(new Set(['rifle', 'pistol']));
    const rifles = await call(sandbox, 'GET', `/v1/range/availability?${window}&lane_type=rifle`, { key });
    expect(rifles.json.data.length).toBeGreaterThan(0);
    expect(rifles.json.data.length).toBeLessThan(lanes.json.data.length);
  });

  it('leaves a pattern the service refuses with a code of its own to the domain: 422, not 400', async () => {
    expect(REQUEST_BODIES['giftCertificates.issue'].code).toMatchObject({
      refusal: 'GIFT_CERTIFICATE_CODE_INVALID',
    });
    const sandbox = newSandbox();
    const res = await call(sandbox, 'POST', '/v1/gift-certificates', {
      key: sandbox.createKey(),
      body: { amount_cents: 500, code: 'a b' },
      headers: { 'Idempotency-Key': 'code-with-a-space' },
    });
    expect([res.status, res.json.error.code]).toEqual([422, 'GIFT_CERTIFICATE_CODE_INVALID']);
  });

  it('reads values by their rules: a date-time as milliseconds, null only where a field may be null', () => {
    const fields = FieldReader.body({ at: '2026-10-02T17:00:00Z', gone: null, kept: null, extra: 1 });
    const values = fields.fields({
      at: { type: 'string', format: 'date-time' },
      gone: { type: 'integer', nullable: true },
      kept: { type: 'integer' },
    });
    expect(values).toEqual({ at: Date.parse('2026-10-02T17:00:00Z'), gone: null });
    expect(fields.undescribed()).toEqual(['extra']);
    expect(() => fields.done()).not.toThrow();
  });

  it('refuses, when the route is made, a sandbox rule that contradicts the spec', () => {
    expect(() =>
      mergeRules(REQUEST_BODIES['memberships.create'], { plan_id: { type: 'string' } }, 'x'),
    ).toThrow('sandbox route x: plan_id: its type is the spec\'s ("integer")');
    expect(() =>
      bodyRoute('memberships.create', { billing_method: { enum: ['link'] } }, () => {
        throw new Error('not called');
      }),
    ).toThrow('its enum is the spec');
  });

  it('fails loudly when a route returns without checking its body', async () => {
    const route = bodyRoute('memberships.useGuestPass', {}, () => ({ status: 200, data: null }));
    const sandbox = newSandbox();
    await expect(
      route.handle({
        sandbox: undefined as never,
        key: sandbox.createKey() as never,
        params: {},
        query: new URLSearchParams(),
        body: {},
        now: '',
      }),
    ).rejects.toThrow('sandbox route memberships.useGuestPass did not check its request (fields.done())');
  });
});
