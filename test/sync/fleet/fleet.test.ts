// ShopFleet over real HTTP: two shops behind one address never share a row (SQLite and Postgres), and the
// one webhook entrance verifies each delivery with its own shop's secrets.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncDatabase } from '../../../src/sync/engine/database.js';
import { ShopFleet } from '../../../src/sync/fleet/fleet.js';
import { readStatus, unhealthy } from '../../../src/sync/fleet/health.js';
import { LeaseLostError } from '../../../src/sync/fleet/lease-contract.js';
import { PostgresShopLeases } from '../../../src/sync/fleet/leases.js';
import { LocalShopLeases } from '../../../src/sync/fleet/local-leases.js';
import { loadShops } from '../../../src/sync/fleet/registry.js';
import { buildEvent } from '../../../src/testing/factories/index.js';
import { signPayload } from '../../../src/webhooks/sign.js';
import { compareWithApi, DIALECTS, freshDatabase, postgresUrl, totals } from '../engine/support.js';
import { registryOf, type ServedShop, servedShops } from './support.js';

/** One address for several sandbox shops, told apart by key, as the real service is. */
async function oneAddress(shops: readonly ServedShop[]): Promise<{ url: string; server: Server }> {
  const byKey = new Map(shops.flatMap((shop) => [[shop.key, shop.url] as const]));
  for (const shop of shops) byKey.set(shop.clientKey, shop.url);
  const server = createServer(async (request, response) => {
    const key = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1] ?? '';
    const target = byKey.get(key) ?? shops[0]!.url;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (name === 'host' || name === 'connection' || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await fetch(`${target}${request.url}`, {
      method: request.method,
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding')
        out[name] = value;
    });
    response.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A shop's row of sync_shops, as stored. */
async function healthLine(db: SyncDatabase, shop: string): Promise<Record<string, unknown>> {
  return (await db.all<Record<string, unknown>>('SELECT * FROM "sync_shops" WHERE "shop" = ?', [shop]))[0]!;
}

describe('two shops behind one address', () => {
  let shops: ServedShop[];
  let front: { url: string; server: Server };
  beforeAll(async () => {
    shops = await servedShops(2, 'twin');
    front = await oneAddress(shops);
  });
  afterAll(async () => {
    front?.server.close();
    await Promise.all(shops.map((shop) => shop.close()));
  });

  for (const dialect of DIALECTS) {
    it.runIf(dialect.available)(`never share a row (${dialect.name})`, async () => {
      const { db, cleanup } = await freshDatabase(dialect.name);
      try {
        const registry = await loadShops(
          shops.map((shop) => ({ name: shop.name, apiKey: shop.key, baseUrl: front.url })),
        );
        const fleet = new ShopFleet({ shops: registry, db });
        const results = await fleet.runOnce();
        expect(results.map((result) => [result.shop, result.state])).toEqual([
          ['twin-1', 'current'],
          ['twin-2', 'current'],
        ]);
        // The seeds differ, so each shop's rows are its own API's, row for row, and nothing of the other's.
        for (const shop of shops) {
          const sum = totals(await compareWithApi(shop.client, db, shop.name));
          expect(sum.api).toBeGreaterThan(50);
          expect({ ...sum, api: 0 }).toEqual({ api: 0, lost: 0, stale: 0, extra: 0 });
        }
        const first = await db.all<{ record: string }>(
          'SELECT "shop", "record" FROM "range_reservation" WHERE "id" = 1 ORDER BY "shop"',
        );
        expect(first).toHaveLength(2);
        expect(first[0]!.record).not.toEqual(first[1]!.record);
        const status = await fleet.status();
        expect(status.map((line) => [line.shop, line.state, line.reason])).toEqual([
          ['twin-1', 'current', null],
          ['twin-2', 'current', null],
        ]);
        await fleet.stop();
      } finally {
        await cleanup();
      }
    });
  }
});

describe('a health row the database refuses', () => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(2, 'health');
  });
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it('is told to onError, and its line shows stale (at once from the fleet, later from the table)', async () => {
    const { db, cleanup } = await freshDatabase('sqlite');
    const errors: { shop: string | null; message: string }[] = [];
    const fleet = new ShopFleet({
      shops: await registryOf(shops),
      db,
      onError: (error, shop) => errors.push({ shop, message: (error as Error).message }),
    });
    try {
      expect((await fleet.runOnce()).map((result) => result.state)).toEqual(['current', 'current']);
      expect(errors).toEqual([]);
      expect((await fleet.status()).map((line) => [line.shop, line.state, line.stale])).toEqual([
        ['health-1', 'current', false],
        ['health-2', 'current', false],
      ]);
      // From now on the database refuses health-2's row (a trigger; as a full disk or a lock would).
      await db.run(
        `CREATE TRIGGER "refuse_health" BEFORE UPDATE ON "sync_shops" WHEN NEW."shop" = 'health-2'
         BEGIN SELECT RAISE(ABORT, 'health-2 refused'); END`,
      );
      expect((await fleet.runOnce()).map((result) => result.state)).toEqual(['current', 'current']);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.filter((error) => error.shop !== 'health-2')).toEqual([]);
      expect(errors[0]!.message).toContain('health-2 refused');
      const lines = await fleet.status();
      expect(lines.map((line) => [line.shop, line.stale])).toEqual([
        ['health-1', false],
        ['health-2', true],
      ]);
      expect(lines.filter(unhealthy).map((line) => line.shop)).toEqual(['health-2']);
      // Another process (`sync status`) sees the row as written; once the time it promised is past (no
      // write came: the fleet's failed, or the fleet is gone), as stale.
      const now = Date.now();
      const later = now + 10 * 60_000;
      expect((await readStatus(db, now)).map((line) => line.stale)).toEqual([false, false]);
      const table = await readStatus(db, later);
      expect(table.map((line) => [line.shop, line.stale])).toEqual([
        ['health-1', true],
        ['health-2', true],
      ]);
      await db.run('DROP TRIGGER "refuse_health"');
      await fleet.stop();
      // A stopped fleet promises nothing: its lines are never stale.
      expect((await readStatus(db, later)).map((line) => line.stale)).toEqual([false, false]);
    } finally {
      await cleanup();
    }
  });
});

describe('a shop with no practical limit', () => {
  // `sandbox --rate-limit off` sends the largest safe integer as X-RateLimit-Limit: the health row keeps it
  // (a 32-bit column refused it on Postgres, and the shop's status stayed at its first state).
  for (const dialect of DIALECTS) {
    it.runIf(dialect.available)(`is reported current, its cap as sent (${dialect.name})`, async () => {
      const shops = await servedShops(1, 'unlimited', () => ({
        rateLimits: { perMinute: Number.MAX_SAFE_INTEGER, perDay: null },
      }));
      const { db, cleanup } = await freshDatabase(dialect.name);
      try {
        const fleet = new ShopFleet({ shops: await registryOf(shops), db });
        await fleet.runOnce();
        const status = await fleet.status();
        expect(status.map((line) => [line.shop, line.state, line.callsCap])).toEqual([
          ['unlimited-1', 'current', Number.MAX_SAFE_INTEGER],
        ]);
        await fleet.stop();
      } finally {
        await cleanup();
        await Promise.all(shops.map((shop) => shop.close()));
      }
    });
  }
});

describe('fencing', () => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(2, 'fence');
  });
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it('writes nothing of a shop whose lease is no longer current', async () => {
    const { db, cleanup } = await freshDatabase('sqlite');
    try {
      // fence-2's lease was taken over by another worker: every check of it fails.
      const fleet = new ShopFleet({
        shops: await registryOf(shops),
        db,
        leases: (events) => {
          const local = new LocalShopLeases(events);
          return {
            start: (names) => local.start(names),
            held: () => local.held(),
            stop: () => local.stop(),
            check: async (tx, lease) => {
              if (lease.shop === 'fence-2') throw new LeaseLostError(lease.shop);
              await local.check(tx, lease);
            },
          };
        },
      });
      const results = await fleet.runOnce();
      expect(results.map((result) => [result.shop, result.state, result.reason])).toEqual([
        ['fence-1', 'current', null],
        ['fence-2', 'elsewhere', 'lease_lost'],
      ]);
      const rows = await db.all<{ shop: string; count: number }>(
        'SELECT "shop", COUNT(*) AS "count" FROM "range_reservation" GROUP BY "shop"',
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.shop).toBe('fence-1');
      const checkpoints = await db.all('SELECT * FROM "sync_checkpoints" WHERE "shop" = ?', ['fence-2']);
      expect(checkpoints).toEqual([]);
      await fleet.stop();
    } finally {
      await cleanup();
    }
  });
});

describe.runIf(postgresUrl)('a stale worker on Postgres leases', () => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(1, 'stale');
  });
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it('writes no sync_runs row once another worker took its shop', async () => {
    const { db, target, cleanup } = await freshDatabase('postgres');
    const fleet = new ShopFleet({
      shops: await registryOf(shops),
      db,
      // A lease long enough that this worker's own heartbeat never finds out: it believes it still holds
      // the shop, as a worker resumed after a stall does until its next round.
      leases: (events) =>
        new PostgresShopLeases({ ...events, connectionString: target, holder: 'A', leaseMs: 120_000 }),
    });
    try {
      const first = await fleet.runOnce();
      expect(first.map((result) => result.state)).toEqual(['current']);
      const runs = () =>
        db.all<{ kind: string; status: string }>(
          'SELECT "kind", "status" FROM "sync_runs" WHERE "shop" = ?',
          ['stale-1'],
        );
      expect(await runs()).toEqual([{ kind: 'once', status: 'finished' }]);
      // Worker B takes the shop over (as its claim does: a new holder and the next token).
      await db.run(
        `UPDATE "sync_shop_leases" SET "holder" = 'B', "token" = "token" + 1, "expires_at" = now() + interval '1 minute', "acquired_at" = now() WHERE "shop" = 'stale-1'`,
      );
      const second = await fleet.runOnce();
      expect(second.map((result) => [result.state, result.reason])).toEqual([['elsewhere', 'lease_lost']]);
      // Its late run left no row: sync_runs is fenced like the rows and checkpoints.
      expect(await runs()).toEqual([{ kind: 'once', status: 'finished' }]);
    } finally {
      await fleet.stop();
      await cleanup();
    }
  });

  /** Worker A's fleet on a fresh database, the shop current and A's line written; B can take the shop. */
  async function heldByA() {
    const { db, target, cleanup } = await freshDatabase('postgres');
    const fleet = new ShopFleet({
      shops: await registryOf(shops),
      db,
      leases: (events) =>
        new PostgresShopLeases({ ...events, connectionString: target, holder: 'A', leaseMs: 120_000 }),
    });
    const line = () => healthLine(db, 'stale-1');
    expect((await fleet.runOnce()).map((result) => result.state)).toEqual(['current']);
    const own = await line();
    expect(own).toMatchObject({ state: 'current', lease_holder: 'A' });
    expect(own.fresh_until).not.toBeNull();
    const takenByB = () =>
      db.run(
        `UPDATE "sync_shop_leases" SET "holder" = 'B', "token" = "token" + 1, "expires_at" = now() + interval '1 minute', "acquired_at" = now() WHERE "shop" = 'stale-1'`,
      );
    const close = async () => {
      await fleet.stop();
      await cleanup();
    };
    return { db, fleet, line, own, takenByB, close };
  }

  it("leaves the new holder's health line alone", async () => {
    const { db, fleet, line, takenByB, close } = await heldByA();
    try {
      // B takes the shop and writes its line; A, stale, runs once more.
      await takenByB();
      await db.run(
        `UPDATE "sync_shops" SET "lease_holder" = 'B', "updated_at" = 'by B' WHERE "shop" = 'stale-1'`,
      );
      expect((await fleet.runOnce()).map((result) => result.state)).toEqual(['elsewhere']);
      expect(await line()).toMatchObject({ state: 'current', lease_holder: 'B', updated_at: 'by B' });
    } finally {
      await close();
    }
  });

  it('marks its own lost shop elsewhere, stale once the promised rewrite time passes', async () => {
    const { db, fleet, line, own, takenByB, close } = await heldByA();
    try {
      // B takes the shop and writes no line (it may have died): nobody may be syncing the shop.
      await takenByB();
      expect((await fleet.runOnce()).map((result) => result.state)).toEqual(['elsewhere']);
      expect(await line()).toMatchObject({
        state: 'elsewhere',
        lease_holder: null,
        fresh_until: own.fresh_until,
      });
      const later = Date.parse(String(own.fresh_until)) + 1_000;
      const [status] = await readStatus(db, later, ['stale-1']);
      expect(status).toMatchObject({ state: 'elsewhere', stale: true });
      expect(unhealthy(status!)).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('a fleet stopped in the middle of a pass', () => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(1, 'halt', () => ({ clock: 'real' }));
  });
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it('leaves the line stopped with no error, and keeps the last success of the process before', async () => {
    const { db, cleanup } = await freshDatabase('sqlite');
    const line = () => healthLine(db, 'halt-1');
    try {
      const first = new ShopFleet({ shops: await registryOf(shops), db });
      expect((await first.runOnce()).map((result) => result.state)).toEqual(['current']);
      await first.stop();
      const before = await line();
      expect(before.last_success_at).not.toBeNull();

      // The next process: its calls slow, stopped while its first pass is under way.
      let calls = 0;
      const next = new ShopFleet({
        shops: await registryOf(shops),
        db,
        client: {
          hooks: {
            beforeRequest: [
              async () => {
                calls++;
                await new Promise((wake) => setTimeout(wake, 200));
              },
            ],
          },
        },
      });
      const running = next.run();
      while (calls < 2) await new Promise((wake) => setTimeout(wake, 10));
      await next.stop();
      await running;
      expect(await line()).toMatchObject({
        state: 'stopped',
        last_error: null,
        last_success_at: before.last_success_at,
        feed_read_at: before.feed_read_at,
      });
    } finally {
      await cleanup();
    }
  });
});

describe('the webhook entrance', () => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(2, 'door', () => ({ clock: 'real' }));
  });
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it('takes a delivery on its own shop path only, and an old secret during its grace', async () => {
    const { db, cleanup } = await freshDatabase('sqlite');
    const secretA = 'whsec_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    const secretB = 'whsec_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    const rotatedB = 'whsec_cccccccccccccccccccccccccccccccc';
    const registry = await loadShops([
      { name: 'door-1', apiKey: shops[0]!.key, baseUrl: shops[0]!.url, webhookSecrets: [secretA] },
      // Shop B is rotating: its new secret and the old one during the grace.
      { name: 'door-2', apiKey: shops[1]!.key, baseUrl: shops[1]!.url, webhookSecrets: [rotatedB, secretB] },
    ]);
    const fleet = new ShopFleet({ shops: registry, db, listen: 0 });
    const running = fleet.run();
    try {
      await until(async () => {
        const lines = await fleet.status();
        return lines.length === 2 && lines.every((line) => line.state === 'current');
      });
      const url = fleet.url!;
      const event = buildEvent('customer.updated', {
        id: 'evt_fleet_1',
        overrides: { id: 999_001, email: 'door@example.com' },
      });
      const body = JSON.stringify(event);
      const signed = async (secret: string) => {
        const timestamp = Math.floor(Date.now() / 1000);
        return {
          'content-type': 'application/json',
          'service-signature': await signPayload({ body, secret, timestamp }),
        };
      };
      const post = async (path: string, secret: string) =>
        (await fetch(`${url}${path}`, { method: 'POST', body, headers: await signed(secret) })).status;

      // Signed for A, sent to B's path: refused, and nothing written for either shop.
      expect(await post('/webhooks/door-2', secretA)).toBe(400);
      expect(await post('/webhooks/nowhere', secretA)).toBe(404);
      const none = await db.all('SELECT * FROM "sync_shop_inbox"');
      expect(none).toEqual([]);
      // A's own path, and B's with its old secret (still in its grace) and its new one.
      expect(await post('/webhooks/door-1', secretA)).toBe(200);
      expect(await post('/webhooks/door-2', secretB)).toBe(200);
      expect(await post('/webhooks/door-2', rotatedB)).toBe(200);
      await until(async () => (await fleet.status()).every((line) => line.inboxPending === 0));
      const rows = await db.all<{ shop: string }>(
        'SELECT "shop" FROM "sync_shop_inbox" WHERE "event_id" = ? AND "applied_at" IS NOT NULL ORDER BY "shop"',
        ['evt_fleet_1'],
      );
      expect(rows.map((row) => row.shop)).toEqual(['door-1', 'door-2']);
      // Applied to each shop's own rows.
      const customers = await db.all<{ shop: string }>(
        'SELECT "shop" FROM "customer" WHERE "id" = 999001 ORDER BY "shop"',
      );
      expect(customers.map((row) => row.shop)).toEqual(['door-1', 'door-2']);
    } finally {
      await fleet.stop();
      await running;
      await cleanup();
    }
  });
});

/** Waits (event-driven enough: every 50 ms) until `check` holds; the test's own timeout bounds it. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}
