import { describe, expect, it } from 'vitest';
import { listRoute } from '../../src/testing/http/list.js';
import { call, newSandbox } from './helpers.js';

// The generic list route reads each query parameter by the operation's rule in the generated table
// (src/generated/request-rules.ts: text, integer, true/false, an ISO date-time); the sandbox states only
// where the service refuses a value outside the listed ones, and a parameter the operation does not take is
// refused when the route is made.

describe('list query parameters typed by the generated schema', () => {
  it('answers 400 VALIDATION_ERROR naming each parameter not of its type, with the reference wording', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const reservations = await call(
      sandbox,
      'GET',
      '/v1/range/reservations?class_session_id=abc&location_id=1.5&from=yesterday',
      { key },
    );
    expect(reservations.status).toBe(400);
    expect(reservations.json.error.code).toBe('VALIDATION_ERROR');
    expect(reservations.json.error.details).toEqual({
      class_session_id: ['must be an integer'],
      location_id: ['must be an integer'],
      from: ['must be an ISO-8601 date-time, e.g. 2026-10-01T17:00:00Z'],
    });
    const checkouts = await call(sandbox, 'GET', '/v1/range/rental-checkouts?open=maybe', { key });
    expect(checkouts.status).toBe(400);
    expect(checkouts.json.error.details).toEqual({ open: ['must be true or false'] });
    const open = await call(sandbox, 'GET', '/v1/range/rental-checkouts?open=true', { key });
    expect(open.status).toBe(200);
    expect(open.json.data.every((row: { checked_in_at: string | null }) => row.checked_in_at === null)).toBe(
      true,
    );
  });

  it('refuses, when the route is made, a parameter the operation does not take or values to refuse it does not list', () => {
    const rows = () => [];
    expect(() => listRoute('range.reservations.list', { rows, params: [{ name: 'colour' }] })).toThrow(
      'sandbox list range.reservations.list: query parameter colour is not one the operation takes',
    );
    expect(() =>
      listRoute('range.reservations.list', { rows, params: [{ name: 'location_id', refuseUnknown: true }] }),
    ).toThrow('query parameter location_id has no values listed to refuse others');
    expect(() =>
      listRoute('range.reservations.list', { rows, params: [{ name: 'status', refuseUnknown: true }] }),
    ).not.toThrow();
  });
});
