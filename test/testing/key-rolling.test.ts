// Key rolling with a grace period (reference section 5, rule 4): the new key works at once, the old one
// until the grace period ends on the sandbox clock, then 401 INVALID_API_KEY.
import { describe, expect, it } from 'vitest';
import { SandboxUsageError } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';

const PATH = '/v1/range/resources';

describe('sandbox.rollKey', () => {
  it('returns a new key; the old one works through the grace period (default 24 h), then is refused', async () => {
    const sandbox = newSandbox();
    const old = sandbox.createKey();
    const next = sandbox.rollKey(old);
    expect(next).toMatch(/^sk_test_/);
    expect(next).not.toBe(old);
    expect((await call(sandbox, 'GET', PATH, { key: next })).status).toBe(200);
    expect((await call(sandbox, 'GET', PATH, { key: old })).status).toBe(200);

    sandbox.clock.advance('23h59m');
    expect((await call(sandbox, 'GET', PATH, { key: old })).status).toBe(200);
    sandbox.clock.advance('1m');
    const refused = await call(sandbox, 'GET', PATH, { key: old });
    expect([refused.status, refused.json.error.code]).toEqual([401, 'INVALID_API_KEY']);
    expect((await call(sandbox, 'GET', PATH, { key: next })).status).toBe(200);
  });

  it('takes the grace period in hours: 2 h, or 0 to refuse the old key at once', async () => {
    const sandbox = newSandbox();
    const first = sandbox.createKey();
    sandbox.rollKey(first, { graceHours: 2 });
    sandbox.clock.advance('1h');
    expect((await call(sandbox, 'GET', PATH, { key: first })).status).toBe(200);
    sandbox.clock.advance('1h');
    expect((await call(sandbox, 'GET', PATH, { key: first })).json.error.code).toBe('INVALID_API_KEY');

    const second = sandbox.createKey();
    const replacement = sandbox.rollKey(second, { graceHours: 0 });
    expect((await call(sandbox, 'GET', PATH, { key: second })).json.error.code).toBe('INVALID_API_KEY');
    expect((await call(sandbox, 'GET', PATH, { key: replacement })).status).toBe(200);
  });

  it('keeps the key what it was: permissions, locations, identity and its Idempotency-Keys', async () => {
    const sandbox = newSandbox();
    const old = sandbox.createKey({ permissions: ['range:write'], locations: [2] });
    const next = sandbox.rollKey(old);
    const me = async (key: string) => (await call(sandbox, 'GET', '/v1/me', { key })).json.data;
    expect(await me(next)).toEqual(await me(old));
    expect((await call(sandbox, 'GET', '/v1/memberships', { key: next })).json.error.code).toBe(
      'INSUFFICIENT_SCOPE',
    );
    const elsewhere = await call(sandbox, 'GET', '/v1/range/resources?location_id=1', { key: next });
    expect(elsewhere.json.data).toEqual([]);

    const window = { starts_at: '2026-10-03T16:00:00Z', ends_at: '2026-10-03T17:00:00Z' };
    const free = await call(sandbox, 'GET', `/v1/range/availability?${new URLSearchParams(window)}`, {
      key: old,
    });
    const booking = {
      ...window,
      resource_ids: [free.json.data[0].resource.id],
      party_size: 1,
      customer_id: 1,
    };
    const headers = { 'Idempotency-Key': 'roll-1' };
    const made = await call(sandbox, 'POST', '/v1/range/reservations', { key: old, body: booking, headers });
    expect(made.status).toBe(201);
    const again = await call(sandbox, 'POST', '/v1/range/reservations', {
      key: next,
      body: booking,
      headers,
    });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.json.data.id).toBe(made.json.data.id);
  });

  it('revoking either key revokes the key: both are refused', async () => {
    const sandbox = newSandbox();
    const old = sandbox.createKey();
    const next = sandbox.rollKey(old);
    sandbox.revokeKey(old);
    for (const key of [old, next]) {
      expect((await call(sandbox, 'GET', PATH, { key })).json.error.code).toBe('INVALID_API_KEY');
    }
  });

  it('refuses to roll an unknown, revoked or already rolled key, or a grace period outside 0 to 168 h', () => {
    const sandbox = newSandbox();
    expect(() => sandbox.rollKey('sk_test_unknown')).toThrow(SandboxUsageError);
    const revoked = sandbox.createKey();
    sandbox.revokeKey(revoked);
    expect(() => sandbox.rollKey(revoked)).toThrow(SandboxUsageError);
    const old = sandbox.createKey();
    const next = sandbox.rollKey(old);
    expect(() => sandbox.rollKey(old)).toThrow(/already rolled/);
    for (const graceHours of [-1, 169, Number.NaN]) {
      expect(() => sandbox.rollKey(next, { graceHours })).toThrow(SandboxUsageError);
    }
    expect(sandbox.rollKey(next, { graceHours: 168 })).toMatch(/^sk_test_/);
  });
});
