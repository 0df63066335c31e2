// Strings the API can carry that a database may refuse: NUL, lone surrogates (Postgres TEXT and JSONB take
// neither), a 1 MB string, emoji. Every typed text column of four tables gets them (the sandbox's records,
// changed on the way by msw): `record` gives back exactly what the API sent, typed columns hold the text
// with NUL and lone surrogates replaced by U+FFFD, on SQLite and Postgres. And a record the database
// refuses for a reason of its own (a constraint, a trigger) is reported and the rest of the stream goes on.
import { bypass, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_TABLES } from '../../../src/generated/sync-schema.js';
import type { SyncGap } from '../../../src/sync/engine/shop-sync.js';
import { ShopSync } from '../../../src/sync/engine/shop-sync.js';
import { escapeText, SyncStore, tableNamed, unescapeText } from '../../../src/sync/engine/store.js';
import { canonicalJson } from '../../../src/sync/engine/versions.js';
import { compareWithApi, DIALECTS, freshDatabase, servedSandbox, totals } from './support.js';

const TABLES = ['range_reservation', 'range_class', 'location', 'product'];
const PATHS: Record<string, string> = {
  '/v1/range/reservations': 'range_reservation',
  '/v1/range/classes': 'range_class',
  '/v1/locations': 'location',
  '/v1/products': 'product',
};
const MEGABYTE = `${'m'.repeat(1 << 20)}🎯`;
const ODD = [
  'nul\u0000inside',
  'lone high \ud800 surrogate',
  'lone low \udc00',
  '\ud83c',
  '🎯 emoji 🔫 ok',
  'escape \ue000 char and \ue0000 look-alike',
  '\u0000',
];
const REPLACED = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what the typed columns replace.
  text.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** Every typed text column of `table` (and of its child rows) set to odd strings, by position. */
function oddify(table: string, record: Record<string, unknown>, index: number): Record<string, unknown> {
  const def = tableNamed(table);
  const out: Record<string, unknown> = { ...record };
  def.columns
    .filter((column) => column.type === 'text')
    .forEach((column, at) => {
      out[column.name] = ODD[(index + at) % ODD.length];
    });
  for (const child of def.children) {
    const items = out[child.field];
    if (!Array.isArray(items)) continue;
    out[child.field] = items.map((item: Record<string, unknown>, at) => {
      const copy = { ...item };
      child.columns
        .filter((column) => column.type === 'text')
        .forEach((column, position) => {
          copy[column.name] = ODD[(index + at + position) % ODD.length];
        });
      return copy;
    });
  }
  if (index === 1) out[def.columns.find((column) => column.type === 'text')!.name] = MEGABYTE;
  return out;
}

describe('the escape of strings for Postgres JSONB', () => {
  const tricky = [
    'plain text',
    '🎯',
    '\u0000',
    '\ud800',
    '\udfff',
    'a\udc00\ud800b',
    '\ue000',
    '\ue000\ue000',
    '\ue0000',
    '\ue000ud800',
    '\ue000u',
    'x\u0000\ue000\ud83c\udfaf\udbff',
  ];
  it('gives back every string it was given, with no NUL or lone surrogate in between', () => {
    expect(tricky.map((text) => unescapeText(escapeText(text)))).toEqual(tricky);
    for (const text of tricky) {
      const escaped = escapeText(text);
      expect(escaped.includes('\u0000')).toBe(false);
      expect(REPLACED(escaped)).toBe(escaped);
    }
    // Strings without NUL, lone surrogates or U+E000 are stored as they are.
    expect(['plain text', '🎯', 'ue000 0'].map(escapeText)).toEqual(['plain text', '🎯', 'ue000 0']);
    expect(escapeText('a\u0000\ud800\ue000')).toBe('a\ue0000\ue000ud800\ue000\ue000');
  });
});

describe.each(DIALECTS)('odd bytes on $name', ({ name, available }) => {
  let shop: Awaited<ReturnType<typeof servedSandbox>>;
  const served = new Map<string, Record<string, unknown>>();
  const server = setupServer(
    http.get(/\/v1\/(range\/reservations|range\/classes|locations|products)$/, async ({ request }) => {
      const answer = await fetch(bypass(request));
      const body = (await answer.json()) as { data: Record<string, unknown>[] };
      const table = PATHS[new URL(request.url).pathname]!;
      body.data = body.data.map((record) => {
        const key = `${table}:${String(record.id)}`;
        const odd = oddify(table, record, Number(record.id) % 50);
        served.set(key, odd);
        return odd;
      });
      return HttpResponse.json(body, { status: answer.status, headers: answer.headers });
    }),
  );
  beforeAll(async () => {
    if (!available) return;
    shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
    server.listen({ onUnhandledRequest: 'bypass' });
  });
  afterAll(async () => {
    server.close();
    await shop?.close();
  });

  it.skipIf(!available)(
    'stores NUL, lone surrogates, a 1 MB string and emoji in every text column, the record as sent',
    async () => {
      const { db, cleanup } = await freshDatabase(name);
      try {
        const gaps: SyncGap[] = [];
        const sync = new ShopSync({
          client: shop.client,
          db,
          shop: 'odd',
          tables: TABLES,
          onGap: (gap) => gaps.push(gap),
        });
        const result = await sync.backfill();
        expect(gaps).toEqual([]);
        expect(result.rejected).toBe(0);
        const store = new SyncStore(db, 'odd');
        let compared = 0;
        let oddValues = 0;
        for (const table of TABLES) {
          const def = tableNamed(table);
          const held = await store.records(def);
          const expected = [...served].filter(([key]) => key.startsWith(`${table}:`));
          expect(held.length).toBe(expected.length);
          expect(held.length).toBeGreaterThan(1);
          const byId = new Map(held.map((record) => [`${table}:${String(record.id)}`, record]));
          for (const [key, record] of expected) {
            expect(canonicalJson(byId.get(key))).toBe(canonicalJson(record));
            compared++;
          }
          // The typed text columns: what was sent, NUL and lone surrogates replaced.
          const text = def.columns.filter((column) => column.type === 'text').map((column) => column.name);
          const rows = await db.all<Record<string, unknown>>(
            `SELECT "id", ${text.map((column) => `"${column}"`).join(', ')} FROM "${table}" WHERE "shop" = ?`,
            ['odd'],
          );
          expect(rows.length).toBe(expected.length);
          for (const row of rows) {
            const sent = served.get(`${table}:${String(row.id)}`)!;
            for (const column of text) {
              expect(row[column]).toBe(REPLACED(sent[column] as string));
              if (sent[column] !== row[column]) oddValues++;
            }
          }
        }
        expect(compared).toBeGreaterThan(40);
        // Record 1 of each table carries a 1 MB string.
        const big = await db.all<{ id: unknown }>(
          'SELECT "id" FROM "location" WHERE "shop" = ? AND "phone" = ?',
          ['odd', MEGABYTE],
        );
        expect(big.map((row) => Number(row.id))).toEqual([1]);
        expect(oddValues).toBeGreaterThan(40);
        // The child rows' text columns too.
        const lines = await db.all<{ kind: string; description: string }>(
          'SELECT "kind", "description" FROM "range_reservation_line" WHERE "shop" = ?',
          ['odd'],
        );
        expect(lines.length).toBeGreaterThan(10);
        expect(lines.some((line) => line.description.includes('\ufffd'))).toBe(true);
        // Nothing changed since: a second walk writes nothing (the stored copies compare equal).
        const again = await sync.backfill();
        expect(again.written).toBe(0);
      } finally {
        await cleanup();
      }
    },
    120_000,
  );
});

describe.each(DIALECTS)('a record the database refuses, on $name', ({ name, available }) => {
  it.skipIf(!available)(
    'is reported as record_rejected and counted, and the rest of the page and of the feed is written',
    async () => {
      const shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
      const { db, cleanup } = await freshDatabase(name);
      try {
        shop.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });
        const gaps: SyncGap[] = [];
        const sync = new ShopSync({
          client: shop.client,
          db,
          shop: 'refuse',
          onGap: (gap) => gaps.push(gap),
        });
        await sync.migrate();
        // The partner's own rule: class 2 and any reservation cancelled for "refuse-me" are refused.
        if (name === 'postgres') {
          await db.run('ALTER TABLE "range_class" ADD CONSTRAINT "no_class_2" CHECK ("id" <> 2)');
          await db.run(
            `ALTER TABLE "range_reservation" ADD CONSTRAINT "no_refused" CHECK ("cancel_reason" IS DISTINCT FROM 'refuse-me')`,
          );
        } else {
          for (const when of ['INSERT', 'UPDATE']) {
            await db.run(
              `CREATE TRIGGER "no_class_2_${when}" BEFORE ${when} ON "range_class" WHEN NEW."id" = 2 BEGIN SELECT RAISE(ABORT, 'class 2 refused'); END`,
            );
            await db.run(
              `CREATE TRIGGER "no_refused_${when}" BEFORE ${when} ON "range_reservation" WHEN NEW."cancel_reason" = 'refuse-me' BEGIN SELECT RAISE(ABORT, 'reservation refused'); END`,
            );
          }
        }
        const first = await sync.runOnce();
        expect(first.rejected).toBe(1);
        expect(gaps.map((gap) => [gap.stream, gap.reason])).toEqual([['range_class', 'record_rejected']]);
        expect(gaps[0]!.detail).toContain('range_class id=2');
        const classes = await db.all<{ id: number | string }>(
          'SELECT "id" FROM "range_class" WHERE "shop" = ? ORDER BY "id"',
          ['refuse'],
        );
        expect(classes.map((row) => Number(row.id))).toEqual([1, 3, 4]);
        // Every other table is whole.
        const others = (await compareWithApi(shop.client, db, 'refuse')).filter(
          (row) => row.table !== 'range_class',
        );
        expect(others.length).toBe(SYNC_TABLES.filter((table) => table.operation).length - 1);
        expect(totals(others)).toMatchObject({ lost: 0, stale: 0, extra: 0 });

        // Two reservations change; the feed brings both: one refused, the other written, the feed goes on.
        const [one, two] = await db.all<{ id: number | string }>(
          `SELECT "id" FROM "range_reservation" WHERE "shop" = ? AND "status" = 'booked' ORDER BY "id" LIMIT 2`,
          ['refuse'],
        );
        shop.sandbox.clock.advance('1m');
        await shop.client.range.reservations.cancel(Number(one!.id), { reason: 'refuse-me' });
        await shop.client.range.reservations.cancel(Number(two!.id), { reason: 'weather' });
        gaps.length = 0;
        const feed = await sync.catchUp();
        expect(feed.rejected).toBe(1);
        expect(gaps.map((gap) => [gap.stream, gap.reason])).toEqual([['events', 'record_rejected']]);
        const statuses = await db.all<{ id: number | string; status: string }>(
          'SELECT "id", "status" FROM "range_reservation" WHERE "shop" = ? AND "id" IN (?, ?) ORDER BY "id"',
          ['refuse', one!.id, two!.id],
        );
        expect(statuses.map((row) => [Number(row.id), row.status])).toEqual([
          [Number(one!.id), 'booked'],
          [Number(two!.id), 'cancelled'],
        ]);
        // An event applied on its own (a webhook through the inbox) is reported the same way, never thrown.
        gaps.length = 0;
        const held = (await new SyncStore(db, 'refuse').records(tableNamed('range_reservation'))).find(
          (record) => Number(record.id) === Number(two!.id),
        )!;
        const written = await sync.applyEvent({
          id: 'evt_refused_webhook',
          type: 'range.reservation.cancelled',
          created_at: '2026-10-01T13:00:00.000Z',
          data: { object: { ...held, cancel_reason: 'refuse-me', updated_at: '2026-10-01T13:00:00.000Z' } },
        });
        expect(written).toBe(0);
        expect(gaps.map((gap) => [gap.stream, gap.reason])).toEqual([['events', 'record_rejected']]);
        expect(gaps[0]!.detail).toContain(`range_reservation id=${Number(two!.id)}`);
        const runs = await db.all<{ errors: number | string; status: string }>(
          'SELECT "errors", "status" FROM "sync_runs" WHERE "shop" = ? AND "kind" = ?',
          ['refuse', 'once'],
        );
        expect(runs.map((run) => [Number(run.errors), run.status])).toEqual([[1, 'finished']]);
      } finally {
        await cleanup();
        await shop.close();
      }
    },
    60_000,
  );
});
