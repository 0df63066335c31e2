// The fleet's dead letters from code, SQLite and Postgres: a delivery the database refuses goes dead (its
// stored error without the shop's key), `unhealthy` names its shop, `deadLetters()` lists it without its
// payload; once the cause is gone `replay()` puts it back in line and wakes the shop, which applies it
// (the feed interval is an hour: only the wake can bring it). And pruning: each shop's pass deletes its
// deliveries applied before the retention (30 days by default, or `retention.doneMs`), nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeadLetters, replayDeadLetters } from '../../../src/sync/fleet/dead-letters.js';
import { ShopFleet } from '../../../src/sync/fleet/fleet.js';
import { readStatus, unhealthy } from '../../../src/sync/fleet/health.js';
import { buildEvent } from '../../../src/testing/factories/index.js';
import { signPayload } from '../../../src/webhooks/sign.js';
import { DIALECTS, freshDatabase } from '../engine/support.js';
import { registryOf, type ServedShop, servedShops } from './support.js';

const SECRET = 'whsec_rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr';
const BAD_CUSTOMER = 999_777;
const DAY = 86_400_000;

describe.each(DIALECTS)('fleet dead letters and pruning ($name)', ({ name, available }) => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(2, `replay-${name}`, () => ({ clock: 'real' }));
  });
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it.runIf(available)(
    'a dead delivery is listed, fails the health check, and applies once replayed',
    async () => {
      const { db, cleanup } = await freshDatabase(name);
      const shop = `replay-${name}-1`;
      const other = `replay-${name}-2`;
      const key = shops[0]!.key;
      const dead: string[] = [];
      const fleet = new ShopFleet({
        shops: await registryOf(shops, new Map(shops.map((served) => [served.name, [SECRET]]))),
        db,
        listen: 0,
        maxAttempts: 2,
        intervalSeconds: 3600,
        retry: { baseMs: 1, maxMs: 10 },
        onError: (error) => dead.push((error as Error).name),
      });
      const running = fleet.run();
      try {
        await until(async () => {
          const lines = await fleet.status();
          return lines.length === 2 && lines.every((line) => line.state === 'current');
        });
        // The cause: the database refuses customer 999777 (its message carries the shop's key).
        const refuse = `customer ${BAD_CUSTOMER} refused for ${key}`;
        await db.transaction((tx) =>
          tx.run(
            name === 'sqlite'
              ? `CREATE TRIGGER "refuse_customer" BEFORE UPDATE ON "sync_shop_inbox" WHEN NEW."event_id" = 'evt_bad' AND NEW."applied_at" IS NOT NULL
             BEGIN SELECT RAISE(ABORT, '${refuse}'); END`
              : `CREATE FUNCTION "refuse_customer"() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF NEW."id" = ${BAD_CUSTOMER} THEN RAISE EXCEPTION '${refuse}'; END IF;
             RETURN NEW; END $$`,
          ),
        );
        if (name === 'postgres') {
          await db.run(
            'CREATE TRIGGER "refuse_customer" BEFORE INSERT ON "customer" FOR EACH ROW EXECUTE FUNCTION "refuse_customer"()',
          );
        }
        await deliver(fleet.url!, shop, 'evt_bad', BAD_CUSTOMER);
        await until(async () => (await readStatus(db)).find((line) => line.shop === shop)!.inboxDead === 1);
        expect(dead).toEqual(['FleetDeliveryDeadError']);

        const lines = await fleet.status();
        expect(lines.filter(unhealthy).map((line) => [line.shop, line.state, line.inboxDead])).toEqual([
          [shop, 'current', 1],
        ]);
        const letters = await fleet.deadLetters();
        expect(letters.map((letter) => [letter.shop, letter.eventId, letter.type, letter.attempts])).toEqual([
          [shop, 'evt_bad', 'customer.updated', 2],
        ]);
        expect(Object.keys(letters[0]!).sort()).toEqual([
          'attempts',
          'deadAt',
          'eventId',
          'lastError',
          'receivedAt',
          'shop',
          'type',
        ]);
        expect(letters[0]!.lastError).toContain(`customer ${BAD_CUSTOMER} refused for [redacted]`);
        expect(JSON.stringify(letters)).not.toContain(key);
        expect(await fleet.deadLetters({ shop: other })).toEqual([]);
        // Not dead, or not there: nothing to replay.
        expect(await replayDeadLetters(db, { shop: other, all: true })).toEqual([]);
        expect(await fleet.replay({ shop, eventId: 'evt_none' })).toEqual([]);
        await expect(fleet.replay({ shop: 'nowhere', all: true })).rejects.toThrow(/no shop nowhere/);

        // The cause removed, the replay applies it on the shop's next pass.
        await db.transaction((tx) =>
          tx.run(
            name === 'sqlite'
              ? 'DROP TRIGGER "refuse_customer"'
              : 'DROP TRIGGER "refuse_customer" ON "customer"',
          ),
        );
        expect(await fleet.replay({ shop, eventId: 'evt_bad' })).toEqual(['evt_bad']);
        await until(async () => {
          const rows = await db.all('SELECT "id" FROM "customer" WHERE "shop" = ? AND "id" = ?', [
            shop,
            BAD_CUSTOMER,
          ]);
          return rows.length === 1;
        });
        const after = await readStatus(db);
        expect(after.map((line) => [line.shop, line.inboxPending, line.inboxDead])).toEqual([
          [shop, 0, 0],
          [other, 0, 0],
        ]);
        expect(after.filter(unhealthy)).toEqual([]);
        expect(await readDeadLetters(db)).toEqual([]);
        expect(dead).toEqual(['FleetDeliveryDeadError']);
      } finally {
        await fleet.stop();
        await running;
        await cleanup();
      }
    },
    90_000,
  );

  it.runIf(available)(
    "prunes each shop's applied deliveries past the retention on its pass, and nothing else",
    async () => {
      const { db, cleanup } = await freshDatabase(name);
      const [a, b] = [`replay-${name}-1`, `replay-${name}-2`];
      const registry = await registryOf(shops);
      const now = Date.now();
      const row = (shop: string, id: string, receivedAt: number, appliedAt: number | null, deadAt?: number) =>
        db.run(
          'INSERT INTO "sync_shop_inbox" ("shop", "event_id", "event", "received_at", "applied_at", "attempts", "dead_at", "last_error") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [
            shop,
            id,
            '{"id":"x","type":"ping","created_at":"2026-01-01T00:00:00Z","data":{}}',
            receivedAt,
            appliedAt,
            deadAt ? 10 : 0,
            deadAt ?? null,
            deadAt ? 'Error: refused' : null,
          ],
        );
      const left = async () =>
        (
          await db.all<{ shop: string; event_id: string }>(
            'SELECT "shop", "event_id" FROM "sync_shop_inbox" ORDER BY "shop", "event_id"',
          )
        )
          .map((entry) => `${entry.shop}/${entry.event_id}`)
          .sort();
      const once = new ShopFleet({ shops: registry, db });
      try {
        await once.database();
        await row(a, 'evt_old', now - 31 * DAY, now - 31 * DAY);
        await row(a, 'evt_young', now - 29 * DAY, now - 29 * DAY);
        await row(a, 'evt_dead', now - 40 * DAY, null, now - 40 * DAY);
        await row(b, 'evt_old', now - 60 * DAY, now - 60 * DAY);
        await row('not-registered', 'evt_old', now - 60 * DAY, now - 60 * DAY);
        const results = await once.runOnce();
        expect(results.map((result) => result.state)).toEqual(['current', 'current']);
        expect(await left()).toEqual(['not-registered/evt_old', `${a}/evt_dead`, `${a}/evt_young`]);
      } finally {
        await once.stop();
      }
      // The live pass, with a retention of 25 days: evt_young goes too.
      const live = new ShopFleet({ shops: registry, db, retention: { doneMs: 25 * DAY } });
      const running = live.run();
      try {
        await until(async () => (await left()).length === 2);
        expect(await left()).toEqual(['not-registered/evt_old', `${a}/evt_dead`]);
      } finally {
        await live.stop();
        await running;
        await cleanup();
      }
      expect(() => new ShopFleet({ shops: registry, db: 'x.db', retention: { doneMs: -1 } })).toThrow(
        /retention.doneMs/,
      );
    },
    90_000,
  );
});

/** Sends a signed `customer.updated` for `customer` to the fleet's entrance, as the shop would. */
async function deliver(url: string, shop: string, id: string, customer: number): Promise<void> {
  const body = JSON.stringify(
    buildEvent('customer.updated', { id, overrides: { id: customer, email: `c${customer}@example.com` } }),
  );
  const timestamp = Math.floor(Date.now() / 1000);
  const answer = await fetch(`${url}/webhooks/${shop}`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'service-signature': await signPayload({ body, secret: SECRET, timestamp }),
    },
  });
  expect(answer.status).toBe(200);
}

/** Waits (every 50 ms) until `check` holds; the test's own timeout bounds it. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}
