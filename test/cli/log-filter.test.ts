// The filters of `logs tail`: which entries pass --status, --path, --operation and --event, alone and
// together, and which flag values are refused.
import { describe, expect, it } from 'vitest';
import { matches, readFilter } from '../../src/cli/commands/logs.js';
import type { Activity } from '../../src/testing/activity.js';

const request = (path: string, status: number, operationId: string | null = null): Activity => ({
  kind: 'request',
  at: '2026-10-01T15:00:00.000Z',
  method: 'GET',
  path,
  status,
  durationMs: 1,
  operationId,
  keyPrefix: null,
  idempotencyKey: null,
  replayed: false,
});
const delivery = (eventType: string, httpStatus: number | null): Activity => ({
  kind: 'delivery',
  at: '2026-10-01T15:00:00.000Z',
  eventId: 'evt_1',
  eventType,
  endpointId: 'we_1',
  deliveryId: 'whd_1',
  attempt: 1,
  status: httpStatus === 200 ? 'succeeded' : 'failed',
  httpStatus,
  error: httpStatus === 200 ? null : 'timeout',
  nextRetryAt: null,
});
const event = (eventType: string): Activity => ({ kind: 'event', at: '', eventId: 'evt_1', eventType });

const all = [
  request('/v1/range/resources', 200, 'range.resources.list'),
  request('/v1/ranger', 404),
  request('/v1/range/reservations/9', 404, 'range.reservations.retrieve'),
  request('/v1/coupons', 201, 'coupons.create'),
  delivery('sale.completed', 200),
  delivery('range.rental.checked_in', 500),
  delivery('sale.voided', null),
  event('sale.completed'),
];

const passing = (flags: Parameters<typeof readFilter>[0]) =>
  all
    .filter((activity) => matches(activity, readFilter(flags)))
    .map((activity) =>
      activity.kind === 'request' ? activity.path : `${activity.kind} ${activity.eventType}`,
    );

describe('logs tail filters', () => {
  it('passes everything without flags', () => {
    expect(passing({})).toHaveLength(all.length);
  });

  it('matches statuses of requests and deliveries, exactly or by class', () => {
    expect(passing({ status: '4xx' })).toEqual(['/v1/ranger', '/v1/range/reservations/9']);
    expect(passing({ status: '201, 5xx' })).toEqual(['/v1/coupons', 'delivery range.rental.checked_in']);
  });

  it('matches paths by prefix (whole segments) or pattern, and operations by id', () => {
    expect(passing({ path: '/v1/range' })).toEqual(['/v1/range/resources', '/v1/range/reservations/9']);
    expect(passing({ path: '/v1/*/reservations/*' })).toEqual(['/v1/range/reservations/9']);
    expect(passing({ operation: 'coupons.create,range.resources.list' })).toEqual([
      '/v1/range/resources',
      '/v1/coupons',
    ]);
  });

  it('matches deliveries and events by type or family, and shows both kinds when both are asked for', () => {
    expect(passing({ event: 'sale.*' })).toEqual([
      'delivery sale.completed',
      'delivery sale.voided',
      'event sale.completed',
    ]);
    expect(passing({ event: 'range.*', path: '/v1/coupons' })).toEqual([
      '/v1/coupons',
      'delivery range.rental.checked_in',
    ]);
    expect(passing({ event: 'sale.completed', status: '2xx' })).toEqual(['delivery sale.completed']);
  });

  it('refuses a status or a path it cannot read', () => {
    expect(() => readFilter({ status: '600' })).toThrow(/--status takes/);
    expect(() => readFilter({ path: 'v1/range' })).toThrow(/--path takes paths/);
  });
});
