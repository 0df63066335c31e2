import { describe, expect, it } from 'vitest';
import { handleRequest } from '../../src/testing/http/pipeline.js';
import { ok, type RouteDefinition } from '../../src/testing/http/route.js';
import { RouteTable } from '../../src/testing/http/route-table.js';
import type { Sandbox } from '../../src/testing/index.js';
import { until } from '../e2e/support/wait.js';
import { call, newSandbox } from './helpers.js';

const booking = (overrides: Record<string, unknown> = {}) => ({
  resource_ids: [3],
  starts_at: '2026-10-04T16:00:00Z',
  ends_at: '2026-10-04T17:00:00Z',
  party_size: 1,
  customer_id: 2,
  ...overrides,
});

/** Resolves once a request has claimed its Idempotency-Key and is still running (a slow shop). */
const claimed = (sandbox: Sandbox) =>
  until(() => sandbox.world.idempotency.inFlight > 0, 'a request holds its Idempotency-Key');

/** Resolves once a request has taken the queued fault. */
const faultTaken = (sandbox: Sandbox) => until(() => sandbox.faults.pending === 0, 'the fault is taken');

describe('sandbox idempotency (reference section 8)', () => {
  it('replays the stored response for the same key and body, with Idempotent-Replayed: true', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const headers = { 'Idempotency-Key': 'book-1' };
    const first = await call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    // Key order does not make a body different.
    const reordered = Object.fromEntries(Object.entries(booking()).reverse());
    const again = await call(sandbox, 'POST', '/v1/range/reservations', { key, body: reordered, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('X-RateLimit-Remaining')).toBe('58');
    const booked = await call(sandbox, 'GET', '/v1/range/reservations?source=api', { key });
    expect(booked.json.data).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_MISMATCH for the same key with a different body', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const headers = { 'Idempotency-Key': 'book-2' };
    await call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    const res = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: booking({ party_size: 2 }),
      headers,
    });
    expect([res.status, res.json.error.code]).toEqual([422, 'IDEMPOTENCY_MISMATCH']);
  });

  it('answers 409 IDEMPOTENCY_IN_PROGRESS while the first request with the key is still running', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const headers = { 'Idempotency-Key': 'book-3' };
    sandbox.faults.next({ delayMs: 150, when: 'after' });
    const first = call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    await claimed(sandbox);
    const second = await call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    expect([second.status, second.json.error.code]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);
    expect((await first).status).toBe(201);
    const third = await call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    expect(third.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('holds the key in flight through a plain delayMs fault, as a slow server would', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const headers = { 'Idempotency-Key': 'book-slow' };
    sandbox.faults.next({ delayMs: 150 });
    const first = call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    await claimed(sandbox);
    const second = await call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    expect([second.status, second.json.error.code]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);
    // The slow request is the one that books, not a replay of the concurrent one.
    const slow = await first;
    expect(slow.status).toBe(201);
    expect(slow.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('claims no key for a delayed fault that fails before the shop: a concurrent request runs', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const headers = { 'Idempotency-Key': 'book-gateway' };
    sandbox.faults.next({ status: 503, delayMs: 150 });
    const first = call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    await faultTaken(sandbox);
    expect(sandbox.world.idempotency.inFlight).toBe(0);
    const second = await call(sandbox, 'POST', '/v1/range/reservations', { key, body: booking(), headers });
    expect(second.status).toBe(201);
    expect((await first).status).toBe(503);
  });

  it('scopes keys to the API key and forgets them after 24 hours', async () => {
    const sandbox = newSandbox();
    const [one, two] = [sandbox.createKey(), sandbox.createKey()];
    const headers = { 'Idempotency-Key': 'shared' };
    const body = booking();
    expect((await call(sandbox, 'POST', '/v1/range/reservations', { key: one, body, headers })).status).toBe(
      201,
    );
    const other = await call(sandbox, 'POST', '/v1/range/reservations', { key: two, body, headers });
    expect([other.status, other.json.error.code]).toEqual([409, 'RESOURCE_UNAVAILABLE']);
    sandbox.clock.advance('23h59m');
    const replay = await call(sandbox, 'POST', '/v1/range/reservations', { key: one, body, headers });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    sandbox.clock.advance('1m');
    const fresh = await call(sandbox, 'POST', '/v1/range/reservations', { key: one, body, headers });
    expect(fresh.headers.get('Idempotent-Replayed')).toBeNull();
    expect(fresh.json.error.code).toBe('RESOURCE_UNAVAILABLE');
  });

  it('stores error answers below 500, refuses keys over 100 characters', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const headers = { 'Idempotency-Key': 'conflict' };
    const body = booking({ resource_ids: [10] });
    const first = await call(sandbox, 'POST', '/v1/range/reservations', { key, body, headers });
    expect(first.json.error.code).toBe('INVALID_RESOURCE');
    const replay = await call(sandbox, 'POST', '/v1/range/reservations', { key, body, headers });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    const long = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: booking(),
      headers: { 'Idempotency-Key': 'k'.repeat(101) },
    });
    expect(long.json.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { 'Idempotency-Key': expect.any(Array) },
    });
  });

  it('does not store 5xx answers and requires a key on balance-move routes', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    let calls = 0;
    const routes: RouteDefinition[] = [
      {
        method: 'POST',
        path: '/v1/test/balance',
        permission: null,
        idempotency: 'required',
        handle: () => {
          calls += 1;
          if (calls === 1) throw new Error('database went away');
          return ok({ calls });
        },
      },
    ];
    const routeTable = new RouteTable(routes);
    const post = (headers: Record<string, string>) =>
      handleRequest(
        sandbox.world,
        routeTable,
        new Request(`${sandbox.baseUrl}/v1/test/balance`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, ...headers },
          body: '{}',
        }),
      );
    const missing = await post({});
    expect([missing.status, (await missing.json()).error.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
    const failed = await post({ 'Idempotency-Key': 'move-1' });
    expect([failed.status, (await failed.json()).error.code]).toEqual([500, 'SERVER_ERROR']);
    const retried = await post({ 'Idempotency-Key': 'move-1' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
    expect(calls).toBe(2);
  });
});
