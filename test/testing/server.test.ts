import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { until } from '../e2e/support/wait.js';
import { START } from './helpers.js';

describe('sandbox over its HTTP server', () => {
  it('serves on 127.0.0.1 and takes the caller IP from the socket or X-Forwarded-For', async () => {
    const local = createSandbox({ now: START });
    const listening = await local.listen();
    try {
      expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const onlyLoopback = local.createKey({ ipAllowlist: ['127.0.0.1'] });
      const headers = { Authorization: `Bearer ${onlyLoopback}` };
      expect((await fetch(`${listening.url}/v1/range/classes`, { headers })).status).toBe(200);
      const forwarded = await fetch(`${listening.url}/v1/range/classes`, {
        headers: { ...headers, 'X-Forwarded-For': '203.0.113.5' },
      });
      expect(forwarded.status).toBe(403);
    } finally {
      await listening.close();
    }
  });

  it('answers auth errors, rate limits and pagination over the wire with their headers', async () => {
    const local = createSandbox({ now: START });
    const listening = await local.listen();
    const localKey = local.createKey();
    const get = (path: string, key = localKey) =>
      fetch(`${listening.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    try {
      const unauthorized = await get('/v1/range/classes', 'sk_test_unknown');
      expect(unauthorized.status).toBe(401);
      expect((await unauthorized.json()).error.code).toBe('INVALID_API_KEY');
      const ids: number[] = [];
      let path = '/v1/range/resources?limit=7';
      for (;;) {
        const page = await (await get(path)).json();
        ids.push(...page.data.map((row: { id: number }) => row.id));
        if (!page.meta.has_more) break;
        path = `/v1/range/resources?limit=7&cursor=${encodeURIComponent(page.meta.next_cursor)}`;
      }
      expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
      let last = await get('/v1/range/classes');
      while (last.status === 200) last = await get('/v1/range/classes');
      expect(last.status).toBe(429);
      expect(Number(last.headers.get('x-sandbox-retry-after'))).toBeGreaterThan(0);
      expect(last.headers.get('retry-after')).toBe('0'); // a frozen clock
      expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    } finally {
      await listening.close();
    }
  });

  it('drops the connection on a reset fault, after processing when asked, so a retry replays', async () => {
    const local = createSandbox({ now: START });
    const listening = await local.listen();
    const localKey = local.createKey();
    const post = () =>
      fetch(`${listening.url}/v1/range/reservations`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${localKey}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': 'once',
        },
        body: JSON.stringify({
          resource_ids: [8],
          starts_at: '2026-10-03T16:00:00Z',
          ends_at: '2026-10-03T17:00:00Z',
          party_size: 1,
          customer_id: 1,
        }),
      });
    try {
      local.faults.next({ reset: true, when: 'after', method: 'POST' });
      await expect(post()).rejects.toThrow(TypeError);
      const retry = await post();
      expect(retry.status).toBe(201);
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
      const list = await fetch(`${listening.url}/v1/range/reservations?source=api`, {
        headers: { Authorization: `Bearer ${localKey}` },
      });
      expect((await list.json()).data).toHaveLength(1);
    } finally {
      await listening.close();
    }
  });

  it('holds a response for delayMs and faults only matching requests', async () => {
    const local = createSandbox({ now: START });
    const localKey = local.createKey();
    local.faults.next({ status: 502, path: '/v1/range/rentals', times: 2 });
    const get = (path: string) =>
      local.fetch(`${local.baseUrl}${path}`, { headers: { Authorization: `Bearer ${localKey}` } });
    expect((await get('/v1/range/classes')).status).toBe(200);
    expect((await get('/v1/range/rentals')).status).toBe(502);
    expect((await get('/v1/range/rentals/1')).status).toBe(502);
    expect(local.faults.pending).toBe(0);
    expect((await get('/v1/range/rentals')).status).toBe(200);
    local.faults.next({ delayMs: 80 });
    const started = performance.now();
    const held = get('/v1/range/classes');
    let settled = false;
    void held.then(() => {
      settled = true;
    });
    await until(() => local.faults.pending === 0, 'the delay is taken');
    expect(settled).toBe(false);
    expect((await held).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
    expect(() => local.faults.next({ status: 404 })).toThrow(/5xx/);
  });
});
