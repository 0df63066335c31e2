// One event a shop's database refuses for good (a trigger raising for that one customer) among good ones
// delivered through the fleet's webhook entrance: the good events before and after it are applied, the bad
// one is tried `maxAttempts` times, then kept in `sync_shop_inbox` as dead with its last error, told to
// `onError`, and counted in the shop's status line; the other shop never notices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopFleet } from '../../../src/sync/fleet/fleet.js';
import { readStatus } from '../../../src/sync/fleet/health.js';
import { buildEvent } from '../../../src/testing/factories/index.js';
import { signPayload } from '../../../src/webhooks/sign.js';
import { DIALECTS, freshDatabase } from '../engine/support.js';
import { registryOf, type ServedShop, servedShops } from './support.js';

const SECRET = 'whsec_dddddddddddddddddddddddddddddddd';
const BAD_CUSTOMER = 999_666;

describe.each(DIALECTS)('a fleet inbox event that can never apply ($name)', ({ name, available }) => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(2, `dead-${name}`, () => ({ clock: 'real' }));
  });
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it.runIf(available)(
    'goes dead after maxAttempts, and the shop applies its other events',
    async () => {
      const { db, cleanup } = await freshDatabase(name);
      // An inbox table made before attempts and dead letters existed: the fleet adds their columns on start.
      await db.run(`CREATE TABLE "sync_shop_inbox" ("shop" TEXT NOT NULL, "event_id" TEXT NOT NULL,
      "event" TEXT NOT NULL, "received_at" BIGINT NOT NULL, "applied_at" BIGINT, PRIMARY KEY ("shop", "event_id"))`);
      const shop = `dead-${name}-1`;
      const other = `dead-${name}-2`;
      const errors: { shop: string | null; message: string }[] = [];
      const fleet = new ShopFleet({
        shops: await registryOf(shops, new Map(shops.map((served) => [served.name, [SECRET]]))),
        db,
        listen: 0,
        maxAttempts: 3,
        retry: { baseMs: 1, maxMs: 10 },
        onError: (error, at) => errors.push({ shop: at, message: (error as Error).message }),
      });
      const running = fleet.run();
      try {
        await until(async () => {
          const lines = await fleet.status();
          return lines.length === 2 && lines.every((line) => line.state === 'current');
        });
        // The database refuses the bad event for good: on Postgres its customer; on SQLite its done mark (the
        // SQLite engine skips a refused record as a rejected one and goes on, so the event would apply). (In a transaction: the one SQLite
        // connection is the fleet's too, and a bare statement would join a transaction of the fleet's.)
        await db.transaction((tx) =>
          tx.run(
            name === 'sqlite'
              ? `CREATE TRIGGER "refuse_customer" BEFORE UPDATE ON "sync_shop_inbox" WHEN NEW."event_id" = 'evt_bad' AND NEW."applied_at" IS NOT NULL
             BEGIN SELECT RAISE(ABORT, 'customer ${BAD_CUSTOMER} refused'); END`
              : `CREATE FUNCTION "refuse_customer"() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF NEW."id" = ${BAD_CUSTOMER} THEN RAISE EXCEPTION 'customer ${BAD_CUSTOMER} refused'; END IF;
             RETURN NEW; END $$`,
          ),
        );
        if (name === 'postgres') {
          await db.run(
            'CREATE TRIGGER "refuse_customer" BEFORE INSERT ON "customer" FOR EACH ROW EXECUTE FUNCTION "refuse_customer"()',
          );
        }
        const deliver = async (to: string, id: string, customer: number) => {
          const body = JSON.stringify(
            buildEvent('customer.updated', {
              id,
              overrides: { id: customer, email: `c${customer}@example.com` },
            }),
          );
          const timestamp = Math.floor(Date.now() / 1000);
          const answer = await fetch(`${fleet.url}/webhooks/${to}`, {
            method: 'POST',
            body,
            headers: {
              'content-type': 'application/json',
              'service-signature': await signPayload({ body, secret: SECRET, timestamp }),
            },
          });
          expect(answer.status).toBe(200);
        };
        await deliver(shop, 'evt_good_before', 999_001);
        await deliver(shop, 'evt_bad', BAD_CUSTOMER);
        await deliver(shop, 'evt_good_after_1', 999_002);
        await deliver(other, 'evt_other', 999_003);
        await deliver(shop, 'evt_good_after_2', 999_004);

        // Before the fix the good events after the bad one never applied: this waited until the test's timeout.
        await until(async () => {
          const line = (await fleet.status()).find((status) => status.shop === shop)!;
          return line.inboxDead === 1 && line.inboxPending === 0 && line.state === 'current';
        });
        const customers = await db.all<{ shop: string; id: unknown }>(
          'SELECT "shop", "id" FROM "customer" WHERE "id" >= 999000 ORDER BY "shop", "id"',
        );
        expect(customers.map((row) => [row.shop, Number(row.id)])).toEqual([
          [shop, 999_001],
          [shop, 999_002],
          [shop, 999_004],
          [other, 999_003],
        ]);
        // The bad event is kept, dead, with its attempts and its last error; the good ones are applied.
        const inbox = await db.all<Record<string, unknown>>(
          'SELECT "shop", "event_id", "attempts", "applied_at", "dead_at", "last_error" FROM "sync_shop_inbox" ORDER BY "shop", "event_id"',
        );
        expect(
          inbox.map((row) => [
            row.shop,
            row.event_id,
            Number(row.attempts),
            row.applied_at !== null,
            row.dead_at !== null,
          ]),
        ).toEqual([
          [shop, 'evt_bad', 3, false, true],
          [shop, 'evt_good_after_1', 0, true, false],
          [shop, 'evt_good_after_2', 0, true, false],
          [shop, 'evt_good_before', 0, true, false],
          [other, 'evt_other', 0, true, false],
        ]);
        expect(String(inbox[0]!.last_error)).toContain(`customer ${BAD_CUSTOMER} refused`);
        // Told once, for its shop, naming the event.
        expect(errors).toHaveLength(1);
        expect(errors[0]!.shop).toBe(shop);
        expect(errors[0]!.message).toContain('evt_bad');
        expect(errors[0]!.message).toContain(`customer ${BAD_CUSTOMER} refused`);
        // Its status line (from the fleet and from the table, as `sync status` reads it) shows the dead letter.
        for (const lines of [await fleet.status(), await readStatus(db)]) {
          expect(lines.map((line) => [line.shop, line.state, line.inboxPending, line.inboxDead])).toEqual([
            [shop, 'current', 0, 1],
            [other, 'current', 0, 0],
          ]);
          expect(lines[0]!.lastError).toContain('evt_bad');
        }
      } finally {
        await fleet.stop();
        await running;
        await cleanup();
      }
    },
    60_000,
  );
});

/** Waits (every 50 ms) until `check` holds; the test's own timeout bounds it. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}
