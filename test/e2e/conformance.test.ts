// Conformance: the sandbox's answers held to the spec's own JSON Schemas (ajv, 2020-12), independently of
// the zod the client validates with. Every e2e file checks what it received (its last test); this one
// also calls every operation of the spec, with a full key, a key without permissions and unknown ids.
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/generated/operations.js';
import { PermissionDeniedError, type ShopApiError } from '../../src/index.js';
import { conformanceTest, failure, spec, useE2E } from './support/harness.js';
import { checkEvent, checkResponse } from './support/recorder.js';
import { runStep, SWEEP, type SweepIds } from './support/sweep.js';

const e2e = useE2E();
// Events exist only for subscribed types: subscribe to everything so the feed has every kind to check.
e2e.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });

const reservation = {
  object: 'range_reservation',
  id: 1,
  location_id: 1,
  class_session_id: null,
  status: 'booked',
  source: 'api',
  party_size: 2,
  starts_at: '2026-10-02T15:00:00Z',
  ends_at: '2026-10-02T16:00:00Z',
  contact: { name: 'Dana Reyes', email: 'dana@example.com', phone: null },
  customer_ids: [1],
  payment_status: 'paid',
  paid_cents: 6000,
  refunded_cents: 0,
  order_id: null,
  storefront_order_id: null,
  lines: [],
  confirmed_at: '2026-10-01T15:00:00Z',
  checked_in_at: null,
  completed_at: null,
  cancelled_at: null,
  no_show_at: null,
  cancel_reason: null,
  created_at: '2026-10-01T15:00:00Z',
  updated_at: '2026-10-01T15:00:00Z',
};

describe('the spec validator (a pass below means something only if it can fail)', () => {
  it('accepts a well-formed reservation and rejects one with a wrongly typed field', () => {
    const ok = checkResponse(spec(), 'GET', '/v1/range/reservations/1', 200, {
      status: 'ok',
      data: reservation,
    });
    expect(ok).toEqual({ operationId: 'range.reservations.retrieve', problems: [] });
    const bad = checkResponse(spec(), 'GET', '/v1/range/reservations/1', 200, {
      status: 'ok',
      data: { ...reservation, paid_cents: '60.00', starts_at: '2026-10-02 15:00' },
    });
    expect(bad.problems.join('\n')).toMatch(/paid_cents must be integer/);
    expect(bad.problems.join('\n')).toMatch(/starts_at must match format "date-time"/);
  });

  it('rejects an error code the spec does not list for the status, and a status the operation lacks', () => {
    const wrongCode = checkResponse(spec(), 'GET', '/v1/range/reservations/1', 404, {
      status: 'error',
      error: { code: 'INVALID_STATE', message: 'x', details: {} },
    });
    expect(wrongCode.problems).toEqual(['error code INVALID_STATE is not one the spec lists for status 404']);
    const wrongStatus = checkResponse(spec(), 'GET', '/v1/range/reservations/1', 409, {
      status: 'error',
      error: { code: 'INVALID_STATE', message: 'x', details: {} },
    });
    expect(wrongStatus.problems).toEqual([
      'status 409 is not a documented response of range.reservations.retrieve',
    ]);
  });

  it('takes a code whose status the spec leaves open (MEMBERSHIP_FULL) at any documented error status', () => {
    const envelope = (code: string) => ({ status: 'error', error: { code, message: 'x', details: {} } });
    for (const status of [409, 422]) {
      expect(checkResponse(spec(), 'POST', '/v1/memberships', status, envelope('MEMBERSHIP_FULL'))).toEqual({
        operationId: 'memberships.create',
        problems: [],
      });
    }
    expect(
      checkResponse(spec(), 'POST', '/v1/memberships', 422, envelope('ALREADY_MEMBER')).problems,
    ).toEqual(['error code ALREADY_MEMBER is not one the spec lists for status 422']);
  });

  it('matches a literal path before a templated one, and holds feed events to their own type', () => {
    expect(spec().match('GET', '/v1/inventory/serialized')?.id).toBe('inventory.listSerialized');
    expect(spec().match('POST', '/v1/range/reservations/7/no-show')?.id).toBe(
      'range.reservations.markNoShow',
    );
    const event = {
      id: 'evt_1',
      object: 'event',
      type: 'range.reservation.booked',
      api_version: '2026-09-24',
      created_at: '2026-10-01T15:00:00Z',
      livemode: false,
      data: { object: { object: 'range_reservation', id: 'one' } },
    };
    expect(checkEvent(spec(), event).join('\n')).toMatch(/\/data\/object/);
  });
});

describe('every operation of the spec through ShopClient over HTTP', () => {
  const ids: SweepIds = {};

  it('calls each of the spec’s operations successfully', async () => {
    const shop = e2e.client();
    for (const step of SWEEP) {
      try {
        await runStep(shop, step, ids);
      } catch (error) {
        throw new Error(`${step.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const all = spec().operations.map((operation) => operation.id);
    expect([...e2e.recorder.succeededOperations()].sort()).toEqual([...all].sort());
  });

  it('refuses each operation that needs a permission to a key without any, naming it in details.required', async () => {
    const shop = e2e.client({ apiKey: e2e.key({ permissions: [] }) });
    for (const step of SWEEP) {
      const { permission } = operations[step.id];
      if (permission === null) {
        await expect(runStep(shop, step, ids), step.id).resolves.toBeDefined();
        continue;
      }
      const error = await failure(runStep(shop, step, ids));
      expect(error, step.id).toBeInstanceOf(PermissionDeniedError);
      expect({ id: step.id, ...(error as ShopApiError) }).toMatchObject({
        id: step.id,
        code: 'INSUFFICIENT_SCOPE',
        details: { required: permission },
      });
    }
  });

  it('answers 404 NOT_FOUND for an unknown id on every operation that takes one', async () => {
    const shop = e2e.client();
    const withIds = SWEEP.filter(
      (step, index) =>
        operations[step.id].pathParams.length > 0 && SWEEP.findIndex((s) => s.id === step.id) === index,
    );
    expect(withIds.length).toBeGreaterThan(25);
    for (const step of withIds) {
      const unknown = {
        ...step,
        params: (known: SweepIds) => ({ ...step.params(known), path: { id: 987_654 } }),
      };
      const error = await failure(runStep(shop, unknown, ids));
      expect({
        id: step.id,
        status: (error as ShopApiError).status,
        code: (error as ShopApiError).code,
      }).toEqual({ id: step.id, status: 404, code: 'NOT_FOUND' });
    }
  });
});

conformanceTest(e2e, 59);
