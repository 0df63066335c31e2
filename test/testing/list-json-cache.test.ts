import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxServer } from '../../src/testing/index.js';
import { noteWrites } from '../../src/testing/state/table.js';
import { call, newSandbox } from './helpers.js';

// A list of stored records is written from each record's cached JSON (src/testing/http/json.ts), reused
// until the next write. These tests hold the bytes to what JSON.stringify of the records gives, over the
// HTTP server and in process, and show a page follows every kind of write: an API call, a register action,
// a change noted by hand.

const PAGE = '/v1/range/reservations?limit=200';

interface Reservation {
  id: number;
  status: string;
  cancel_reason: string | null;
  [field: string]: unknown;
}

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp(): Promise<{ sandbox: Sandbox; key: string; page: () => Promise<string> }> {
  const sandbox = newSandbox({
    records: { reservations: 300 },
    rateLimits: { perMinute: 1e6, perDay: null },
  });
  const key = sandbox.createKey();
  server = await sandbox.listen();
  const url = server.url;
  const page = async () => {
    const response = await fetch(`${url}${PAGE}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength);
    expect(response.headers.get('content-type')).toBe('application/json');
    return new TextDecoder().decode(bytes);
  };
  return { sandbox, key, page };
}

/** The body JSON.stringify gives for the page: the envelope of the stored rows, as the route had it before. */
function expectedBody(sandbox: Sandbox, body: string): string {
  const { meta } = JSON.parse(body) as { meta: unknown };
  const rows = sandbox.world.state.range.reservations.all().slice(0, 200);
  return JSON.stringify({ status: 'ok', data: rows, meta });
}

function dataOf(body: string): Reservation[] {
  return (JSON.parse(body) as { data: Reservation[] }).data;
}

describe('list pages written from cached record JSON', () => {
  it('gives the bytes JSON.stringify gives, the same over HTTP and in process, request after request', async () => {
    const { sandbox, key, page } = await setUp();
    const first = await page();
    expect(dataOf(first)).toHaveLength(200);
    expect(first).toBe(expectedBody(sandbox, first));
    expect(await page()).toBe(first);
    const inProcess = await sandbox.fetch(`${sandbox.baseUrl}${PAGE}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(await inProcess.text()).toBe(first);
  });

  it('shows a write made through the API, and only that record changes', async () => {
    const { sandbox, key, page } = await setUp();
    const before = await page();
    const target = dataOf(before).find((row) => row.status === 'booked');
    expect(target).toBeDefined();
    // Text outside ASCII (two-, three- and four-byte UTF-8) in the record, to check the page's byte count.
    const reason = 'Zoë — rain 🎯';
    const cancelled = await call(sandbox, 'POST', `/v1/range/reservations/${target!.id}/cancel`, {
      key,
      body: { reason },
    });
    expect(cancelled.status).toBe(200);

    const after = await page();
    expect(after).not.toBe(before);
    expect(after).toBe(expectedBody(sandbox, after));
    const shown = dataOf(after).find((row) => row.id === target!.id)!;
    expect(shown.status).toBe('cancelled');
    expect(shown.cancel_reason).toBe(reason);
    const retrieved = await call(sandbox, 'GET', `/v1/range/reservations/${target!.id}`, { key });
    expect(shown).toEqual(retrieved.json.data);
    const others = (body: string) => dataOf(body).filter((row) => row.id !== target!.id);
    expect(others(after)).toEqual(others(before));
  });

  it('shows a register action and a change noted with noteWrites', async () => {
    const { sandbox, key, page } = await setUp();
    const before = await page();
    const target = dataOf(before).find((row) => row.status === 'booked');
    expect(target).toBeDefined();
    const checkedIn = await call(sandbox, 'POST', `/v1/range/reservations/${target!.id}/check-in`, { key });
    expect(checkedIn.status).toBe(200);
    expect(dataOf(await page()).find((row) => row.id === target!.id)!.status).toBe('checked_in');

    // Not over HTTP: the register's own action stamps the record (touch), which notes a write.
    sandbox.register.closeVisit(target!.id);
    const closed = await page();
    expect(dataOf(closed).find((row) => row.id === target!.id)!.status).toBe('completed');
    expect(closed).toBe(expectedBody(sandbox, closed));

    // A change made in place by other code shows once it is noted, as the tables' indexes require.
    const row = sandbox.world.state.range.reservations.get(target!.id)!;
    row.cancel_reason = 'noted by hand';
    noteWrites();
    const noted = await page();
    expect(dataOf(noted).find((item) => item.id === target!.id)!.cancel_reason).toBe('noted by hand');
    expect(noted).toBe(expectedBody(sandbox, noted));
  });

  it('answers many pages at once over HTTP, each with its own bytes (the server reuses body buffers)', async () => {
    const { sandbox, key } = await setUp();
    const headers = { Authorization: `Bearer ${key}` };
    const paths = Array.from({ length: 24 }, (_, index) => {
      const limit = [200, 7, 120, 1, 199, 60][index % 6];
      return `/v1/range/reservations?limit=${limit}`;
    });
    const expected = await Promise.all(
      paths.map(async (path) => (await sandbox.fetch(`${sandbox.baseUrl}${path}`, { headers })).text()),
    );
    for (let round = 0; round < 3; round++) {
      const bodies = await Promise.all(
        paths.map(async (path) => (await fetch(`${server!.url}${path}`, { headers })).text()),
      );
      expect(bodies).toEqual(expected);
    }
    expect(new Set(expected).size).toBe(6);
  });
});
