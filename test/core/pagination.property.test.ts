import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, listReservations, ok, reservation, testClient, useMswServer } from './support.js';

const server = useMswServer();

interface Listing {
  readonly total: number;
  readonly pageSize: number;
  /** One opaque cursor per page boundary, arbitrary unicode, all distinct. */
  readonly cursors: string[];
}

const listing = fc
  .record({ total: fc.integer({ min: 0, max: 120 }), pageSize: fc.integer({ min: 1, max: 40 }) })
  .chain(({ total, pageSize }) => {
    const boundaries = Math.max(0, Math.ceil(total / pageSize) - 1);
    return fc.record({
      total: fc.constant(total),
      pageSize: fc.constant(pageSize),
      cursors: fc.uniqueArray(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }), {
        minLength: boundaries,
        maxLength: boundaries,
      }),
    });
  });

/** Serves the listing; any cursor it did not hand out is a 400, so a cursor altered on the way fails the run. */
function serve({ total, pageSize, cursors }: Listing): { requests: number } {
  const counter = { requests: 0 };
  const offsets = new Map(cursors.map((cursor, index) => [cursor, (index + 1) * pageSize]));
  server.use(
    http.get(`${BASE_URL}/v1/range/reservations`, ({ request }) => {
      counter.requests++;
      const cursor = new URL(request.url).searchParams.get('cursor');
      const offset = cursor === null ? 0 : offsets.get(cursor);
      if (offset === undefined)
        return HttpResponse.json({ status: 'error', error: { code: 'VALIDATION_ERROR' } }, { status: 400 });
      const end = Math.min(offset + pageSize, total);
      const data = Array.from({ length: end - offset }, (_, i) => reservation(offset + i + 1));
      const next = end < total ? (cursors[offset / pageSize] ?? null) : null;
      return HttpResponse.json(ok(data, { limit: pageSize, has_more: next !== null, next_cursor: next }));
    }),
  );
  return counter;
}

const ids = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

describe('pagination, for any record count, page size and cursors', () => {
  it('for await yields exactly the server records, in order, passing every cursor back verbatim', async () => {
    await fc.assert(
      fc.asyncProperty(listing, async (list) => {
        const counter = serve(list);
        const seen: number[] = [];
        for await (const item of testClient().list(listReservations)) seen.push(item.id);
        expect(seen).toEqual(ids(list.total));
        expect(counter.requests).toBe(Math.max(1, Math.ceil(list.total / list.pageSize)));
      }),
      { numRuns: 60 },
    );
  });

  it('toArray({ max }) returns the first max records and never requests a page it does not need', async () => {
    await fc.assert(
      fc.asyncProperty(listing, fc.integer({ min: 1, max: 150 }), async (list, max) => {
        const counter = serve(list);
        const items = await testClient().list(listReservations).toArray({ max });
        const wanted = Math.min(max, list.total);
        expect(items.map((item) => item.id)).toEqual(ids(wanted));
        expect(counter.requests).toBe(Math.max(1, Math.ceil(wanted / list.pageSize)));
      }),
      { numRuns: 60 },
    );
  });
});
