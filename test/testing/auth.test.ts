import { describe, expect, it } from 'vitest';
import { call, newSandbox } from './helpers.js';

describe('sandbox authentication and access (reference section 5)', () => {
  it('answers 401 INVALID_API_KEY for a missing, malformed, unknown, revoked or expired key', async () => {
    const sandbox = newSandbox();
    const path = '/v1/range/resources';
    expect((await call(sandbox, 'GET', path)).json.error.code).toBe('INVALID_API_KEY');
    const malformed = await call(sandbox, 'GET', path, { headers: { Authorization: 'Token abc' } });
    expect(malformed.status).toBe(401);
    expect((await call(sandbox, 'GET', path, { key: 'sk_test_nope' })).json.error.code).toBe(
      'INVALID_API_KEY',
    );
    const revoked = sandbox.createKey();
    sandbox.revokeKey(revoked);
    expect((await call(sandbox, 'GET', path, { key: revoked })).json.error.code).toBe('INVALID_API_KEY');
    const expiring = sandbox.createKey({ expiresAt: new Date(sandbox.clock.nowMs() + 60_000) });
    expect((await call(sandbox, 'GET', path, { key: expiring })).status).toBe(200);
    sandbox.clock.advance('1m');
    const expired = await call(sandbox, 'GET', path, { key: expiring });
    expect(expired.status).toBe(401);
    expect(expired.json.error.code).toBe('INVALID_API_KEY');
    expect(expired.headers.get('X-RateLimit-Limit')).toBeNull();
  });

  it('answers 401 WRONG_ENVIRONMENT for a live key on the sandbox and a sandbox key on live', async () => {
    const sandbox = newSandbox();
    const live = sandbox.createKey({ environment: 'live' });
    expect(live.startsWith('sk_live_')).toBe(true);
    const res = await call(sandbox, 'GET', '/v1/range/resources', { key: live });
    expect([res.status, res.json.error.code]).toEqual([401, 'WRONG_ENVIRONMENT']);
    const liveService = newSandbox({ environment: 'live' });
    const sandboxKey = liveService.createKey({ environment: 'sandbox' });
    const onLive = await call(liveService, 'GET', '/v1/range/resources', { key: sandboxKey });
    expect(onLive.json.error.code).toBe('WRONG_ENVIRONMENT');
    expect(
      (await call(liveService, 'GET', '/v1/range/resources', { key: liveService.createKey() })).status,
    ).toBe(200);
  });

  it('answers 403 INSUFFICIENT_SCOPE naming the missing permission in details.required', async () => {
    const sandbox = newSandbox();
    const reader = sandbox.createKey({ permissions: ['range:read'] });
    expect((await call(sandbox, 'GET', '/v1/range/reservations/1', { key: reader })).status).toBe(200);
    const write = await call(sandbox, 'POST', '/v1/range/reservations/1/cancel', { key: reader });
    expect(write.status).toBe(403);
    expect(write.json.error).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required: 'range:write' },
    });
    const none = sandbox.createKey({ permissions: ['customers:read'] });
    const read = await call(sandbox, 'GET', '/v1/range/rentals', { key: none });
    expect(read.json.error.details).toEqual({ required: 'range:read' });
    expect(() => sandbox.createKey({ permissions: ['range:admin' as never] })).toThrow(/Unknown permission/);
  });

  it('hides records at other locations as 404 and filters lists for a location-limited key', async () => {
    const sandbox = newSandbox();
    const north = sandbox.createKey({ locations: [2] });
    const rentals = await call(sandbox, 'GET', '/v1/range/rentals?limit=200', { key: north });
    expect(rentals.json.data.length).toBeGreaterThan(0);
    expect(rentals.json.data.every((row: { location_id: number }) => row.location_id === 2)).toBe(true);
    const elsewhere = await call(sandbox, 'GET', '/v1/range/rentals/1', { key: north });
    expect([elsewhere.status, elsewhere.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const laneAtMain = await call(sandbox, 'GET', '/v1/range/resources?location_id=1', { key: north });
    expect(laneAtMain.json.data).toEqual([]);
  });

  it('refuses a write that names a location outside the key limit', async () => {
    const sandbox = newSandbox();
    const north = sandbox.createKey({ locations: [2] });
    const res = await call(sandbox, 'POST', '/v1/range/reservations', {
      key: north,
      body: {
        resource_ids: [1],
        location_id: 1,
        starts_at: '2026-10-03T16:00:00Z',
        ends_at: '2026-10-03T17:00:00Z',
        party_size: 1,
        customer_id: 1,
      },
    });
    expect([res.status, res.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const cancelElsewhere = await call(sandbox, 'POST', '/v1/range/reservations/1/cancel', { key: north });
    expect(cancelElsewhere.status).toBe(404);
  });

  it('answers 403 IP_NOT_ALLOWED outside the allowlist, reading the caller from X-Forwarded-For', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ ipAllowlist: ['203.0.113.0/24', '198.51.100.7'] });
    const from = (ip: string) =>
      call(sandbox, 'GET', '/v1/range/classes', { key, headers: { 'X-Forwarded-For': ip } });
    expect((await from('203.0.113.9')).status).toBe(200);
    expect((await from('198.51.100.7, 10.0.0.1')).status).toBe(200);
    const refused = await from('192.0.2.1');
    expect([refused.status, refused.json.error.code]).toEqual([403, 'IP_NOT_ALLOWED']);
    expect(refused.headers.get('X-RateLimit-Limit')).toBe('60');
  });

  it.each([
    ['api_not_in_plan', 'API_NOT_IN_PLAN'],
    ['trial_expired', 'TRIAL_EXPIRED'],
    ['billing_past_due', 'BILLING_PAST_DUE'],
    ['subscription_canceled', 'SUBSCRIPTION_CANCELED'],
    ['plan_required', 'PLAN_REQUIRED'],
  ] as const)('answers 402 %s as %s until the subscription is active again', async (state, code) => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    sandbox.setSubscription(state);
    const res = await call(sandbox, 'GET', '/v1/events', { key });
    expect([res.status, res.json.error.code]).toEqual([402, code]);
    sandbox.setSubscription('active');
    expect((await call(sandbox, 'GET', '/v1/events', { key })).status).toBe(200);
  });

  it('answers every /v1/range/* path 402 RANGE_ADDON_REQUIRED without the add-on, unknown ones too', async () => {
    const sandbox = newSandbox({ rangeAddon: false });
    const key = sandbox.createKey();
    for (const path of ['/v1/range/resources', '/v1/range/rentals/1', '/v1/range/not-a-path']) {
      const res = await call(sandbox, 'GET', path, { key });
      expect([res.status, res.json.error.code]).toEqual([402, 'RANGE_ADDON_REQUIRED']);
    }
    expect((await call(sandbox, 'GET', '/v1/events', { key })).status).toBe(200);
  });

  it('locks an IP out with 429 after 30 failed key attempts in a minute, other IPs unaffected', async () => {
    const sandbox = newSandbox();
    const good = sandbox.createKey();
    const attacker = { 'X-Forwarded-For': '203.0.113.66' };
    for (let attempt = 0; attempt < 30; attempt++) {
      const res = await call(sandbox, 'GET', '/v1/events', {
        key: `sk_test_guess${attempt}`,
        headers: attacker,
      });
      expect(res.status).toBe(401);
    }
    const locked = await call(sandbox, 'GET', '/v1/events', { key: 'sk_test_guess31', headers: attacker });
    expect([locked.status, locked.json.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(locked.headers.get('X-Sandbox-Retry-After'))).toBe(60);
    expect(locked.headers.get('Retry-After')).toBe('0'); // a frozen clock: no real wait helps
    expect((await call(sandbox, 'GET', '/v1/events', { key: good, headers: attacker })).status).toBe(429);
    expect((await call(sandbox, 'GET', '/v1/events', { key: good })).status).toBe(200);
    sandbox.clock.advance('60s');
    expect((await call(sandbox, 'GET', '/v1/events', { key: good, headers: attacker })).status).toBe(200);
  });
});
