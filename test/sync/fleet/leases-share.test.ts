// Shop leases in one process (several PostgresShopLeases on the test run's PostgreSQL, each its own pool, a
// table of each test's own): the fair share as workers come and go, tokens that only grow, check() through
// the sync engine's own transaction, and a worker stalled inside its write transaction, which must not pin
// its shop. The same across real processes, with kill -9, SIGSTOP and restarts: leases.test.ts.
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ShopError } from '../../../src/core/errors/shop-error.js';
import { openSyncDatabase } from '../../../src/sync/engine/database.js';
import { LeaseLostError, PostgresShopLeases, type ShopLease } from '../../../src/sync/fleet/leases.js';

const postgresUrl = inject('postgresUrl');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const LEASE_MS = 1500;

async function until<T>(
  what: string,
  ms: number,
  probe: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe.skipIf(!postgresUrl)('Postgres shop leases in one process', () => {
  const url = postgresUrl as string;
  const running: PostgresShopLeases[] = [];
  let table = '';
  const acquired: ShopLease[] = [];
  const lost: { holder: string; shop: string; reason: string }[] = [];

  const worker = (holder: string) => {
    const leases = new PostgresShopLeases({
      connectionString: url,
      holder,
      table,
      leaseMs: LEASE_MS,
      heartbeatMs: 150,
      onAcquired: (lease) => acquired.push(lease),
      onLost: (shop, reason) => lost.push({ holder, shop, reason }),
    });
    running.push(leases);
    return leases;
  };
  const shops = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
  const counts = (workers: PostgresShopLeases[]) => workers.map((w) => w.held().size);

  afterEach(async () => {
    await Promise.all(running.splice(0).map((leases) => leases.stop()));
    acquired.length = 0;
    lost.length = 0;
  });
  const fresh = () => {
    table = `leases_${Math.random().toString(36).slice(2, 10)}`;
  };

  it('shares 12 shops 6/6, rebalances to 4/4/4 when a third worker comes, back to 6/6 when one stops', async () => {
    fresh();
    const [a, b] = [worker('a'), worker('b')];
    await Promise.all([a.start(shops(12)), b.start(shops(12))]);
    await until('6/6', 20_000, () => (counts([a, b]).join() === '6,6' ? true : undefined));
    const lostBefore = lost.length;
    const c = worker('c');
    await c.start(shops(12));
    await until('4/4/4', 20_000, () => (counts([a, b, c]).join() === '4,4,4' ? true : undefined));
    // The shops the first two gave up were released to rebalance, not lost to a stall.
    const rebalanced = lost.slice(lostBefore);
    expect(rebalanced).toHaveLength(4);
    for (const entry of rebalanced)
      expect(entry.reason).toMatch(/^released to rebalance \(3 workers, share 4\)/);
    await b.stop();
    await until('6/6 without b', 20_000, () => (counts([a, c]).join() === '6,6' ? true : undefined));
    // No shop held twice at once, and each shop's tokens only grow, one per acquisition.
    const all = new Set([...a.held().keys(), ...c.held().keys()]);
    expect(all.size).toBe(12);
    const byShop = new Map<string, number[]>();
    for (const lease of acquired) byShop.set(lease.shop, [...(byShop.get(lease.shop) ?? []), lease.token]);
    expect(byShop.size).toBe(12);
    for (const tokens of byShop.values())
      expect(tokens).toEqual(Array.from({ length: tokens.length }, (_, i) => i + 1));
  });

  it("check() in the sync engine's transaction passes for the holder and refuses a superseded token", async () => {
    fresh();
    const db = await openSyncDatabase(url);
    try {
      await db.run('CREATE TABLE IF NOT EXISTS lease_share_writes (shop TEXT, token BIGINT)');
      const a = worker('a');
      await a.start(['only']);
      const lease = await until('a to hold the shop', 10_000, () => a.held().get('only'));
      await db.transaction(async (tx) => {
        await a.check(tx, lease);
        await tx.run('INSERT INTO lease_share_writes (shop, token) VALUES (?, ?)', ['only', lease.token]);
      });
      await a.stop();
      const b = worker('b');
      await b.start(['only']);
      const taken = await until('b to hold the shop', 10_000, () => b.held().get('only'));
      expect(taken.token).toBe(lease.token + 1);
      const refused = db.transaction(async (tx) => {
        await tx.run('INSERT INTO lease_share_writes (shop, token) VALUES (?, ?)', ['only', -lease.token]);
        await a.check(tx, lease);
      });
      await expect(refused).rejects.toBeInstanceOf(LeaseLostError);
      await expect(refused).rejects.toBeInstanceOf(ShopError);
      const rows = await db.all<{ token: string }>(
        'SELECT token FROM lease_share_writes WHERE shop = ? AND token = ?',
        ['only', -lease.token],
      );
      expect(rows).toEqual([]);
    } finally {
      await db.run('DROP TABLE IF EXISTS lease_share_writes');
      await db.close();
    }
  });

  it('a write transaction stalled after check() does not pin the shop: the server ends it, the next worker takes over', async () => {
    fresh();
    const a = worker('a');
    await a.start(['only']);
    const lease = await until('a to hold the shop', 10_000, () => a.held().get('only'));
    // A write transaction that passed check() and then hangs (a stalled handler, a stopped process): its
    // lock keeps every takeover off the row until the server ends the session.
    const client = new pg.Client({ connectionString: url });
    const ended: Error[] = [];
    client.on('error', (error) => ended.push(error));
    await client.connect();
    await client.query('BEGIN');
    await a.check(client, lease);
    // A's own heartbeat is not held up by its write: it still holds the shop a lease later.
    await sleep(LEASE_MS + 300);
    expect(a.held().get('only')).toEqual(lease);
    await a.stop();
    const b = worker('b');
    await b.start(['only']);
    const next = await until('b to take the shop under a newer token', 20_000, () => b.held().get('only'));
    expect(next.token).toBe(lease.token + 1);
    // The stalled transaction was ended by the server (idle past the lease): it can commit nothing.
    expect(ended.map((error) => error.message).join(' ')).toMatch(/idle-in-transaction timeout/);
    await expect(client.query('COMMIT')).rejects.toThrow();
    await client.end().catch(() => undefined);
  });

  it('refuses options that cannot work, as a ShopError', () => {
    expect(() => new PostgresShopLeases({ connectionString: url, table: 'x; DROP TABLE y' })).toThrow(
      ShopError,
    );
    expect(() => new PostgresShopLeases({ connectionString: url, leaseMs: 100 })).toThrow(ShopError);
    expect(() => new PostgresShopLeases({ connectionString: url, leaseMs: 3000, heartbeatMs: 2000 })).toThrow(
      /heartbeatMs/,
    );
    expect(() => new PostgresShopLeases({ connectionString: 'mysql://x' })).toThrow(ShopError);
  });
});
