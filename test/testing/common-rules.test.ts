import { describe, expect, it } from 'vitest';
import { call, listAll, newSandbox } from './helpers.js';

describe('sandbox common rules (reference section 4)', () => {
  it('wraps data in the success envelope and lists in meta {limit, has_more, next_cursor}', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const res = await call(sandbox, 'GET', '/v1/range/resources?limit=3', { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json.status).toBe('ok');
    expect(res.json.data.map((row: { id: number }) => row.id)).toEqual([1, 2, 3]);
    expect(res.json.meta).toEqual({ limit: 3, has_more: true, next_cursor: expect.any(String) });
  });

  it('walks a list by next_cursor in ascending id order without gaps or repeats', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const all = await listAll(sandbox, '/v1/range/resources?limit=200', key);
    const paged = await listAll(sandbox, '/v1/range/resources?limit=4', key);
    expect(paged.map((row) => row.id)).toEqual(all.map((row) => row.id));
    expect(all.map((row) => row.id)).toEqual([...all.map((row) => row.id)].sort((a, b) => a - b));
    expect(all.length).toBeGreaterThan(4);
  });

  it('defaults limit to 50 and refuses limits outside 1..200 and bad cursors with per-field details', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const checkouts = await call(sandbox, 'GET', '/v1/range/rental-checkouts', { key });
    expect(checkouts.json.meta.limit).toBe(50);
    const bad = await call(sandbox, 'GET', '/v1/range/resources?limit=201&cursor=not-a-cursor', { key });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      status: 'error',
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        details: { limit: ['must be at most 200'], cursor: ['is not a cursor this API issued'] },
      },
    });
    const zero = await call(sandbox, 'GET', '/v1/range/resources?limit=0', { key });
    expect(zero.json.error.details).toEqual({ limit: ['must be at least 1'] });
  });

  it('filters on updated_since (at or after) and refuses a malformed one', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    sandbox.clock.advance('1h');
    const since = sandbox.clock.now().toISOString();
    expect(
      (await call(sandbox, 'GET', `/v1/range/reservations?updated_since=${since}`, { key })).json.data,
    ).toEqual([]);
    const reservation = (await call(sandbox, 'GET', '/v1/range/reservations?status=booked&limit=1', { key }))
      .json.data[0];
    await call(sandbox, 'POST', `/v1/range/reservations/${reservation.id}/cancel`, { key });
    const changed = await call(sandbox, 'GET', `/v1/range/reservations?updated_since=${since}`, { key });
    expect(changed.json.data.map((row: { id: number }) => row.id)).toEqual([reservation.id]);
    const bad = await call(sandbox, 'GET', '/v1/range/reservations?updated_since=yesterday', { key });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.error.details)).toEqual(['updated_since']);
  });

  it('answers 405 METHOD_NOT_ALLOWED on a known path and 404 NOT_FOUND on an unknown one', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const wrongMethod = await call(sandbox, 'DELETE', '/v1/range/reservations', { key });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.json.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.json.error.details.allowed).toEqual(['GET', 'POST']);
    const unknown = await call(sandbox, 'GET', '/v1/range/nothing-here', { key });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('NOT_FOUND');
    const badId = await call(sandbox, 'GET', '/v1/range/reservations/abc', { key });
    expect(badId.status).toBe(404);
  });

  it('refuses a body that is not a JSON object with VALIDATION_ERROR', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const res = await sandbox.handle(
      new Request(`${sandbox.baseUrl}/v1/range/reservations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: '{"party_size": 2',
      }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error.details).toEqual({ body: ['must be valid JSON'] });
  });

  it('builds the same shop from the same seed and a different one from another seed', async () => {
    const read = async (seed: number) => {
      const sandbox = newSandbox({ seed });
      return listAll(sandbox, '/v1/range/reservations?limit=200', sandbox.createKey());
    };
    expect(await read(3)).toEqual(await read(3));
    expect(await read(3)).not.toEqual(await read(4));
  });
});
