import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, ShopError } from '../../src/core/errors/index.js';
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

// Issue 20: a server whose cursors may repeat. Each cursor always leads to the same page (as a real server's
// would), so a repeated cursor is a real loop; the walk must fail exactly when it is about to request a cursor
// it already requested on the way, and never when `toArray({ max })` or a `break` ends it first.
interface LoopyServer {
  /** Page per cursor ('' for the first page): how many items, and the next cursor (null: the last page). */
  readonly pages: Record<string, { readonly size: number; readonly next: string | null }>;
}

const CURSORS = ['a', 'b', 'c', 'd', 'e', 'f'];
const loopyServer = fc
  .array(
    fc.record({
      size: fc.integer({ min: 0, max: 4 }),
      next: fc.option(fc.constantFrom(...CURSORS), { freq: 6 }),
    }),
    { minLength: CURSORS.length + 1, maxLength: CURSORS.length + 1 },
  )
  .map(
    (entries): LoopyServer => ({
      pages: Object.fromEntries(entries.map((page, index) => [index === 0 ? '' : CURSORS[index - 1]!, page])),
    }),
  );

/** What the walk must do, worked out from the server's pages: the items it collects, or the loop it meets. */
function expectedWalk(list: LoopyServer, max: number): { items: number; requests: number; loops: boolean } {
  const requested = new Set<string>(['']);
  let cursor = '';
  let items = 0;
  for (;;) {
    const page = list.pages[cursor]!;
    items += page.size;
    if (items >= max) return { items: max, requests: requested.size, loops: false };
    if (page.next === null) return { items, requests: requested.size, loops: false };
    if (requested.has(page.next)) return { items, requests: requested.size, loops: true };
    requested.add(page.next);
    cursor = page.next;
  }
}

describe('pagination against a server whose cursors loop', () => {
  it('fails only when about to request a repeated cursor (fuzz: 0 false rejects, 0 missed loops)', async () => {
    const tally = { falseRejects: 0, missedLoops: 0, loops: 0, runs: 0 };
    await fc.assert(
      fc.asyncProperty(
        loopyServer,
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        async (list, max, useBreak) => {
          let requests = 0;
          let nextId = 1;
          server.use(
            http.get(`${BASE_URL}/v1/range/reservations`, ({ request }) => {
              requests++;
              const page = list.pages[new URL(request.url).searchParams.get('cursor') ?? '']!;
              const data = Array.from({ length: page.size }, () => reservation(nextId++));
              return HttpResponse.json(ok(data, { has_more: page.next !== null, next_cursor: page.next }));
            }),
          );
          const expected = expectedWalk(list, max);
          let collected = 0;
          let rejected: unknown;
          try {
            if (useBreak) {
              for await (const _ of testClient().list(listReservations)) {
                if (++collected >= max) break;
              }
            } else {
              collected = (await testClient().list(listReservations).toArray({ max })).length;
            }
          } catch (error) {
            rejected = error;
          }
          tally.runs++;
          if (expected.loops) tally.loops++;
          if (rejected !== undefined && !expected.loops) tally.falseRejects++;
          if (rejected === undefined && expected.loops) tally.missedLoops++;
          if (expected.loops) expect(rejected).toBeInstanceOf(InvalidResponseError);
          else expect(rejected).toBeUndefined();
          // A rejected toArray() hands back nothing; a for-await loop has seen the items before the loop.
          expect(collected).toBe(expected.loops && !useBreak ? 0 : expected.items);
          expect(requests).toBe(expected.requests);
        },
      ),
      { numRuns: 300 },
    );
    expect(tally).toMatchObject({ falseRejects: 0, missedLoops: 0 });
    // The generator does produce loops, and walks that end before them.
    expect(tally.loops).toBeGreaterThan(20);
  });

  it('maxPages bounds a walk over a server that always answers a new cursor', async () => {
    let requests = 0;
    server.use(
      http.get(`${BASE_URL}/v1/range/reservations`, () => {
        requests++;
        return HttpResponse.json(
          ok([reservation(requests)], { has_more: true, next_cursor: `c${requests}` }),
        );
      }),
    );
    const error = await testClient()
      .list(listReservations, {}, { maxPages: 25 })
      .toArray()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ShopError);
    expect((error as Error).message).toMatch(/maxPages \(25\)/);
    expect(requests).toBe(25);
    const invalid = await testClient()
      .list(listReservations, {}, { maxPages: 0 })
      .catch((thrown: unknown) => thrown);
    expect(invalid).toMatchObject({ name: 'ParamsValidationError' });
  });
});
