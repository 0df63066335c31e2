import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Operation } from '../../src/core/api/operation.js';
import { Page, PagePromise } from '../../src/core/api/pagination.js';
import { InvalidResponseError, ShopError, TimeoutError } from '../../src/core/errors/index.js';
import {
  BASE_URL,
  listReservations,
  ok,
  rejection,
  reservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const LIST_URL = `${BASE_URL}/v1/range/reservations`;

/** Serves `total` reservations `pageSize` at a time behind cursors `cur-<offset>`; records each query. */
function servePages(total: number, pageSize: number): URLSearchParams[] {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(LIST_URL, ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const cursor = query.get('cursor');
      const offset = cursor ? Number(cursor.slice('cur-'.length)) : 0;
      const end = Math.min(offset + pageSize, total);
      const data = Array.from({ length: end - offset }, (_, i) => reservation(offset + i + 1));
      const hasMore = end < total;
      return HttpResponse.json(
        ok(data, { limit: pageSize, has_more: hasMore, next_cursor: hasMore ? `cur-${end}` : null }),
      );
    }),
  );
  return queries;
}

describe('a list call', () => {
  it('returns a PagePromise whose await gives the first Page', async () => {
    const queries = servePages(5, 2);
    const promise = testClient().list(listReservations, { query: { limit: 2 } });
    expect(promise).toBeInstanceOf(PagePromise);
    const page = await promise;
    expect(page).toBeInstanceOf(Page);
    expect(page.data.map((r) => r.id)).toEqual([1, 2]);
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toBe('cur-2');
    expect(page.meta).toMatchObject({ limit: 2, has_more: true, next_cursor: 'cur-2' });
    expect(page.hasNextPage()).toBe(true);
    expect(queries).toHaveLength(1);
  });

  it('walks every item across pages with for await, following next_cursor', async () => {
    const queries = servePages(5, 2);
    const ids: number[] = [];
    for await (const item of testClient().list(listReservations, { query: { limit: 2, status: 'booked' } })) {
      ids.push(item.id);
    }
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(queries.map((q) => q.get('cursor'))).toEqual([null, 'cur-2', 'cur-4']);
    expect(queries.every((q) => q.get('status') === 'booked' && q.get('limit') === '2')).toBe(true);
  });

  it('walks pages with .pages() and page by page with getNextPage()', async () => {
    servePages(5, 2);
    const sizes: number[] = [];
    for await (const page of testClient()
      .list(listReservations, { query: { limit: 2 } })
      .pages())
      sizes.push(page.data.length);
    expect(sizes).toEqual([2, 2, 1]);

    const first = await testClient().list(listReservations, { query: { limit: 2 } });
    const second = await first.getNextPage();
    const third = await second.getNextPage();
    expect(third.data.map((r) => r.id)).toEqual([5]);
    expect(third.hasNextPage()).toBe(false);
    expect(await rejection(third.getNextPage())).toBeInstanceOf(ShopError);
  });

  it('iterates from a Page onward with for await', async () => {
    servePages(5, 2);
    const second = await (await testClient().list(listReservations, { query: { limit: 2 } })).getNextPage();
    const ids: number[] = [];
    for await (const item of second) ids.push(item.id);
    expect(ids).toEqual([3, 4, 5]);
  });

  it('toArray({ max }) stops requesting pages once it has max records', async () => {
    const queries = servePages(100, 10);
    const items = await testClient()
      .list(listReservations, { query: { limit: 10 } })
      .toArray({ max: 20 });
    expect(items.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(queries).toHaveLength(2);
  });

  it('toArray() without max collects everything', async () => {
    servePages(7, 3);
    expect(
      await testClient()
        .list(listReservations, { query: { limit: 3 } })
        .toArray(),
    ).toHaveLength(7);
  });

  it('gives .withResponse() on a list: the first Page with its response', async () => {
    servePages(3, 2);
    const { data, response, rateLimit } = await testClient()
      .list(listReservations, { query: { limit: 2 } })
      .withResponse();
    expect(data).toBeInstanceOf(Page);
    expect(response.status).toBe(200);
    expect(rateLimit.limit).toBeNull();
  });

  it('refuses a server that hands back the cursor it was given, instead of looping', async () => {
    server.use(
      http.get(LIST_URL, () =>
        HttpResponse.json(ok([reservation(1)], { has_more: true, next_cursor: 'same' })),
      ),
    );
    const walk = testClient().list(listReservations).toArray();
    expect(await rejection(walk)).toBeInstanceOf(InvalidResponseError);
  });

  it('refuses any cursor already seen in the walk: A -> B -> A stops after three pages', async () => {
    const requested: (string | null)[] = [];
    const nextOf: Record<string, string> = { first: 'A', A: 'B', B: 'A' };
    server.use(
      http.get(LIST_URL, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        requested.push(cursor);
        return HttpResponse.json(
          ok([reservation(requested.length)], { has_more: true, next_cursor: nextOf[cursor ?? 'first'] }),
        );
      }),
    );
    const error = await rejection(testClient().list(listReservations).toArray());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toBe(
      'The list returned a cursor this walk already requested 2 pages ago; stopping instead of looping',
    );
    expect(requested).toEqual([null, 'A', 'B']);
  });

  it('lets a page fetch its next page twice: the same request is no cycle', async () => {
    servePages(6, 2);
    const first = await testClient().list(listReservations, { query: { limit: 2 } });
    const second = await first.getNextPage();
    const third = await second.getNextPage();
    const secondAgain = await first.getNextPage();
    expect(third.data.map((item) => item.id)).toEqual([5, 6]);
    expect(secondAgain.data.map((item) => item.id)).toEqual([3, 4]);
    expect((await secondAgain.getNextPage()).data.map((item) => item.id)).toEqual([5, 6]);
  });
});

describe('query encoding', () => {
  function captureQuery(): { raw: () => string } {
    let raw = '';
    server.use(
      http.get(LIST_URL, ({ request }) => {
        raw = new URL(request.url).search;
        return HttpResponse.json(ok([], { has_more: false, next_cursor: null }));
      }),
    );
    return { raw: () => raw };
  }

  it('sends booleans as true/false, arrays comma-separated, a Date as its ISO string, and leaves undefined out', async () => {
    const seen = captureQuery();
    await testClient().list(listReservations, {
      query: {
        open: false,
        lane_type: ['rifle', 'pistol'],
        from: new Date('2026-10-01T09:00:00.000Z'),
        status: undefined,
        limit: 50,
      },
    });
    expect(seen.raw()).toBe('?open=false&lane_type=rifle,pistol&from=2026-10-01T09%3A00%3A00.000Z&limit=50');
  });

  it('sends a timestamp string exactly as given', async () => {
    const seen = captureQuery();
    await testClient().list(listReservations, { query: { from: '2026-10-01T09:00:00+02:00' } });
    expect(new URLSearchParams(seen.raw()).get('from')).toBe('2026-10-01T09:00:00+02:00');
  });

  it('sends no query string when every value is undefined', async () => {
    const seen = captureQuery();
    await testClient().list(listReservations, { query: { status: undefined } });
    expect(seen.raw()).toBe('');
  });
});

describe('later pages', () => {
  it('carry the call options: headers, timeout and signal reach every page', async () => {
    const seen: Request[] = [];
    server.use(
      http.get(LIST_URL, async ({ request }) => {
        seen.push(request);
        const cursor = new URL(request.url).searchParams.get('cursor');
        if (cursor === 'slow') await delay(1_000);
        return HttpResponse.json(
          ok([reservation(seen.length)], { limit: 1, has_more: true, next_cursor: cursor ? 'slow' : 'two' }),
        );
      }),
    );
    const controller = new AbortController();
    const first = await testClient({ timeout: 30_000 }).list(
      listReservations,
      { query: { limit: 1 } },
      { headers: { 'x-trace-id': 'walk-7' }, timeout: 100, maxRetries: 0, signal: controller.signal },
    );
    const second = await first.getNextPage();
    expect(seen.map((request) => request.headers.get('x-trace-id'))).toEqual(['walk-7', 'walk-7']);
    // The third page is slow: the call's 100 ms timeout applies to it, not the client's 30 s.
    expect(await rejection(second.getNextPage())).toBeInstanceOf(TimeoutError);
    controller.abort('walk cancelled');
    expect(await rejection(second.getNextPage())).toBe('walk cancelled');
    expect(seen).toHaveLength(3);
  });

  it('check the query once per walk, not once per page', async () => {
    servePages(6, 2);
    let checks = 0;
    const counted = {
      ...listReservations,
      query: z.looseObject({ limit: z.number().int() }).superRefine(() => {
        checks++;
      }),
    } satisfies Operation;
    const ids: number[] = [];
    for await (const item of testClient().list(counted, { query: { limit: 2 } })) ids.push(item.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(checks).toBe(1);
  });

  it('resume from a cursor the caller saved, then follow the server', async () => {
    const queries = servePages(6, 2);
    const ids: number[] = [];
    for await (const item of testClient().list(listReservations, { query: { cursor: 'cur-2', limit: 2 } }))
      ids.push(item.id);
    expect(ids).toEqual([3, 4, 5, 6]);
    expect(queries.map((q) => q.get('cursor'))).toEqual(['cur-2', 'cur-4']);
    expect(queries.map((q) => q.getAll('cursor').length)).toEqual([1, 1]);
  });
});
