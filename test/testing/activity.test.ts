// The sandbox's live log: every request with its operation and only a key prefix, every delivery attempt
// with its next retry, bounded, and resumable from an entry id (a gap said when the ring moved past it).
import { describe, expect, it } from 'vitest';
import { ACTIVITY_HISTORY, ActivityLog, operationOf } from '../../src/testing/activity.js';
import { call, newSandbox } from './helpers.js';

describe('sandbox activity log', () => {
  it('records requests with their operation and key prefix, and delivery attempts with the next retry', async () => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
    const key = sandbox.createKey();
    const seen: unknown[] = [];
    sandbox.world.activity.follow((entry) => seen.push(entry.activity));
    await call(sandbox, 'POST', '/v1/coupons', {
      key,
      body: { code: 'LOG1', name: 'Log', percent_off: 5 },
      headers: { 'Idempotency-Key': 'log-key-1' },
    });
    await call(sandbox, 'GET', '/v1/range/reservations/12345', { key });
    await call(sandbox, 'GET', '/v1/locations', { key: 'sk_test_wrong' });
    await sandbox.webhooks.flush();
    expect(seen).toEqual([
      expect.objectContaining({ kind: 'event', eventType: 'coupon.created' }),
      expect.objectContaining({
        kind: 'request',
        method: 'POST',
        status: 201,
        operationId: 'coupons.create',
        keyPrefix: `${key.slice(0, 12)}…`,
        idempotencyKey: 'log-key-1',
        replayed: false,
      }),
      expect.objectContaining({ kind: 'request', status: 404, operationId: 'range.reservations.retrieve' }),
      expect.objectContaining({ kind: 'request', status: 401, keyPrefix: 'sk_test_wron…' }),
      expect.objectContaining({
        kind: 'delivery',
        eventType: 'coupon.created',
        attempt: 1,
        status: 'failed',
      }),
    ]);
    const delivery = seen.at(-1) as { nextRetryAt: string; at: string };
    expect(Date.parse(delivery.nextRetryAt) - sandbox.clock.nowMs()).toBe(60_000);
    expect(JSON.stringify(seen)).not.toContain(key.slice(12, 20));
  });

  it('names operations by the generated table, literal segments before parameters', () => {
    expect(operationOf('POST', '/v1/inventory/adjust')).toBe('inventory.adjust');
    expect(operationOf('POST', '/v1/range/reservations/5/check-in')).toBe('range.reservations.checkIn');
    expect(operationOf('GET', '/v1/nowhere')).toBeNull();
  });

  it('hands a reader what came after its last id, everything of a new run, and says what the ring lost', () => {
    const log = new ActivityLog();
    const add = (count: number) => {
      for (let index = 0; index < count; index++) {
        log.add({ kind: 'event', at: '', eventId: `evt_${index}`, eventType: 'ping' });
      }
    };
    add(5);
    expect(log.after(null)).toEqual({ entries: [], missed: 0 });
    expect(log.after(`${log.run}.3`).entries.map((entry) => entry.id)).toEqual([
      `${log.run}.4`,
      `${log.run}.5`,
    ]);
    expect(log.after('someotherrun.3').entries).toHaveLength(5);
    add(3 * ACTIVITY_HISTORY);
    const resumed = log.after(`${log.run}.3`);
    expect(resumed.entries).toHaveLength(ACTIVITY_HISTORY);
    expect(resumed.missed).toBe(5 + 3 * ACTIVITY_HISTORY - ACTIVITY_HISTORY - 3);
  });
});
