import { describe, expect, it } from 'vitest';
import { noteWrites, Table } from '../../src/testing/state/table.js';
import { call, listAll, newSandbox } from './helpers.js';

interface Row {
  id: number;
  status: string;
  location_id: number;
  source: string;
  class_session_id: number | null;
  starts_at: string;
  updated_at: string;
}

/** What the reservation list must answer for `filters`: the stored rows scanned one by one, in id order. */
function scanned(
  rows: readonly Row[],
  filters: Record<string, string>,
  locations: number[] | null,
): number[] {
  return rows
    .filter(
      (row) =>
        (locations === null || locations.includes(row.location_id)) &&
        (filters.status === undefined || row.status === filters.status) &&
        (filters.location_id === undefined || row.location_id === Number(filters.location_id)) &&
        (filters.source === undefined || row.source === filters.source) &&
        (filters.class_session_id === undefined ||
          row.class_session_id === Number(filters.class_session_id)) &&
        (filters.from === undefined || Date.parse(row.starts_at) >= Date.parse(filters.from)) &&
        (filters.updated_since === undefined ||
          Date.parse(row.updated_at) >= Date.parse(filters.updated_since)),
    )
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

describe('the generic list route and its indexes', () => {
  it('answers every filter, alone and combined, page by page, as a scan of the stored rows would, across writes', async () => {
    const sandbox = newSandbox({
      records: { reservations: 400 },
      rateLimits: { perMinute: 1_000_000, perDay: null },
    });
    const key = sandbox.createKey();
    const oneLocation = sandbox.createKey({ locations: [1] });
    const table = sandbox.world.state.range.reservations;
    const rows = () => table.all() as unknown as Row[];
    const sessionId = rows().find((row) => row.class_session_id !== null)?.class_session_id;
    expect(sessionId).toBeTypeOf('number');

    const check = async (since: string) => {
      const cases: Record<string, string>[] = [
        {},
        { status: 'booked' },
        { status: 'completed' },
        { status: 'cancelled' },
        { status: 'checked_in' },
        { location_id: '1' },
        { source: 'api' },
        { class_session_id: String(sessionId) },
        { updated_since: since },
        { status: 'cancelled', updated_since: since },
        { status: 'completed', location_id: '1', from: '2026-09-20T00:00:00Z' },
      ];
      for (const filters of cases) {
        const query = new URLSearchParams({ ...filters, limit: '37' }).toString();
        for (const [which, locations] of [
          [key, null],
          [oneLocation, [1]],
        ] as const) {
          const listed = await listAll(sandbox, `/v1/range/reservations?${query}`, which);
          const expected = scanned(rows(), filters, locations === null ? null : [...locations]);
          expect(
            listed.map((row: { id: number }) => row.id),
            `${query} ${which === key ? '' : '(one location)'}`,
          ).toEqual(expected);
        }
      }
    };

    // Build the indexes, then change records in every way the sandbox does.
    const before = sandbox.clock.now().toISOString();
    await check(before);
    sandbox.clock.advance('1h');
    const since = sandbox.clock.now().toISOString();
    const booked = rows().filter((row) => row.status === 'booked');
    expect(booked.length).toBeGreaterThanOrEqual(3);
    // A cancel over HTTP (the domain writes updated_at itself, without touch).
    expect(
      (await call(sandbox, 'POST', `/v1/range/reservations/${booked[0]!.id}/cancel`, { key })).status,
    ).toBe(200);
    expect(
      (await call(sandbox, 'POST', `/v1/range/reservations/${booked[1]!.id}/check-in`, { key })).status,
    ).toBe(200);
    // A register action (no request at all).
    sandbox.register.closeVisit(booked[1]!.id);
    // A new booking (an insert after the indexes exist).
    const lane = sandbox.world.state.range.resources.find(
      (row) => row.type === 'lane' && row.status === 'active' && row.location_id === 1,
    )!;
    const created = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: {
        resource_ids: [lane.id],
        starts_at: new Date(sandbox.clock.nowMs() + 3 * 86_400_000).toISOString(),
        ends_at: new Date(sandbox.clock.nowMs() + 3 * 86_400_000 + 3_600_000).toISOString(),
        party_size: 1,
        customer: { email: 'ada.index@example.com', first_name: 'Ada', last_name: 'Index' },
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    // Time passing runs the clock's jobs (holds expire, sessions close).
    sandbox.clock.advance('2d');
    await check(since);
    await check(before);
  });

  it('keeps a table index current across inserts, in-place changes, deletes and replaced rows', () => {
    const table = new Table<{ id: number; status: string; updated_at: string }>();
    for (let index = 0; index < 10; index++) {
      table.insert((id) => ({
        id,
        status: id % 2 ? 'odd' : 'even',
        updated_at: `2026-01-01T00:00:0${index}Z`,
      }));
    }
    const ids = (rows: readonly { id: number }[]) => rows.map((row) => row.id);
    expect(ids(table.equal('status', 'odd'))).toEqual([1, 3, 5, 7, 9]);
    expect(table.changedSince('updated_at', Date.parse('2026-01-01T00:00:08Z')).count).toBe(2);

    table.get(4)!.status = 'odd';
    table.get(4)!.updated_at = '2026-01-02T00:00:00Z';
    noteWrites();
    table.insert((id) => ({ id, status: 'odd', updated_at: '2026-01-01T00:00:00Z' }));
    table.delete(3);
    expect(ids(table.equal('status', 'odd'))).toEqual([1, 4, 5, 7, 9, 11]);
    expect(ids(table.equal('status', 'even'))).toEqual([2, 6, 8, 10]);
    expect(ids(table.changedSince('updated_at', Date.parse('2026-01-01T00:00:08Z')).rows)).toEqual([
      9, 10, 4,
    ]);
    expect(ids(table.ordered())).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11]);

    // A snapshot restore replaces the rows Map: the indexes are rebuilt from it.
    (table as unknown as { rows: Map<number, unknown> }).rows = new Map([
      [1, { id: 1, status: 'even', updated_at: '2026-01-01T00:00:00Z' }],
    ]);
    expect(ids(table.equal('status', 'odd'))).toEqual([]);
    expect(ids(table.equal('status', 'even'))).toEqual([1]);
  });
});
