// A small fake of GET /v1/events and GET /v1/inventory behind msw, so the sync helpers run against the real
// ShopClient (transport, pagination, schema validation) with nothing leaving the process.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { compareTimestamps } from '../../src/sync/timestamps.js';

export const BASE_URL = 'http://127.0.0.1:4011';

export interface FakeEvent {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  created_at: string;
  livemode: boolean;
  data: { object: Record<string, unknown> };
}

export interface FakeLevel {
  object: 'inventory_level';
  product_id: number;
  location_id: number;
  qty_on_hand: number;
  qty_reserved: number;
  qty_available: number;
  reorder_point: number;
  bin_location: string;
  updated_at: string;
}

/** Event ids that sort in creation order, as the feed's ascending id order needs. */
export function eventId(n: number): string {
  return `evt_${String(n).padStart(6, '0')}`;
}

export function makeEvent(
  n: number,
  createdAt: string,
  type = 'sale.completed',
  object: Record<string, unknown> = {},
): FakeEvent {
  return {
    id: eventId(n),
    object: 'event',
    type,
    api_version: '2026-09-24',
    created_at: createdAt,
    livemode: false,
    data: { object: { object: 'order', id: n, ...object } },
  };
}

/** Pages `records` (already filtered) by an index cursor. */
function page(records: unknown[], url: URL) {
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const start = Number(url.searchParams.get('cursor') ?? 0);
  const data = records.slice(start, start + limit);
  const next = start + limit;
  const hasMore = next < records.length;
  return HttpResponse.json({
    status: 'ok',
    data,
    meta: { limit, has_more: hasMore, next_cursor: hasMore ? String(next) : null },
  });
}

/** Starts the fake for the test file; tests mutate `events` and `levels` and read `queries`. */
export function fakeApi() {
  const state = {
    events: [] as FakeEvent[],
    levels: [] as FakeLevel[],
    /** The query of every request, by path. */
    queries: [] as { path: string; query: Record<string, string> }[],
    /** How many of the next GET /v1/inventory requests answer 503. */
    inventoryFailures: 0,
  };
  const server = setupServer(
    http.get(`${BASE_URL}/v1/events`, ({ request }) => {
      const url = new URL(request.url);
      state.queries.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
      const since = url.searchParams.get('updated_since');
      const type = url.searchParams.get('type');
      const records = [...state.events]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .filter((event) => !since || compareTimestamps(event.created_at, since) >= 0)
        .filter((event) => !type || event.type === type);
      return page(records, url);
    }),
    http.get(`${BASE_URL}/v1/inventory`, ({ request }) => {
      const url = new URL(request.url);
      state.queries.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
      if (state.inventoryFailures > 0) {
        state.inventoryFailures--;
        return HttpResponse.json(
          { status: 'error', error: { code: 'SERVICE_UNAVAILABLE', message: 'Try again.', details: {} } },
          { status: 503 },
        );
      }
      const since = url.searchParams.get('updated_since');
      return page(
        state.levels.filter((level) => !since || compareTimestamps(level.updated_at, since) >= 0),
        url,
      );
    }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const client = new ShopClient({ apiKey: 'sk_test_sync_0123456789', baseUrl: BASE_URL, maxRetries: 0 });
  return { state, client };
}
