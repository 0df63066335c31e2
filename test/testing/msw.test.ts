import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { sandboxHandlers } from '../../src/testing/msw-entry.js';
import { START } from './helpers.js';

const sandbox = createSandbox({ now: START });
const key = sandbox.createKey();
const auth = { Authorization: `Bearer ${key}` };
const server = setupServer(...sandbox.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => sandbox.faults.clear());
afterAll(() => server.close());

describe('sandbox over msw', () => {
  it('answers fetch calls to baseUrl in-process', async () => {
    const res = await fetch(`${sandbox.baseUrl}/v1/range/classes?limit=2`, { headers: auth });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toHaveLength(2);
    expect(res.headers.get('X-RateLimit-Limit')).toBe('60');
  });

  it('passes POST bodies through and gives 503 envelopes and network errors on injected faults', async () => {
    const created = await fetch(`${sandbox.baseUrl}/v1/range/reservations`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        resource_ids: [7],
        starts_at: '2026-10-03T16:00:00Z',
        ends_at: '2026-10-03T17:00:00Z',
        party_size: 1,
        customer_id: 1,
      }),
    });
    expect(created.status).toBe(201);
    sandbox.faults.next({ status: 503 });
    const failed = await fetch(`${sandbox.baseUrl}/v1/range/classes`, { headers: auth });
    expect(failed.status).toBe(503);
    expect((await failed.json()).error.code).toBe('SERVER_ERROR');
    sandbox.faults.next({ reset: true });
    await expect(fetch(`${sandbox.baseUrl}/v1/range/classes`, { headers: auth })).rejects.toThrow(TypeError);
    expect((await fetch(`${sandbox.baseUrl}/v1/range/classes`, { headers: auth })).status).toBe(200);
  });
});

describe('shop-mgmt/testing/msw', () => {
  it('serves the sandbox through handlers typed with msw', async () => {
    const other = createSandbox({ now: START, baseUrl: 'https://other.shop.test' });
    const typed: HttpHandler[] = sandboxHandlers(other);
    server.use(...typed);
    const res = await fetch(`${other.baseUrl}/v1/range/classes?limit=1`, {
      headers: { Authorization: `Bearer ${other.createKey()}` },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toHaveLength(1);
  });
});
