// Three `shop-mgmt sync --shops F --db postgres://... --lease-seconds 3` worker processes share the 30 shops
// of one `shop-mgmt sandbox --shops 30` process by lease, while a supervisor kill -9s a random worker at
// least 20 times (and restarts it), one worker is SIGSTOPped for longer than its lease and then resumed,
// and the shops change all along. Afterwards every shop's tables equal its API (row for row, 0 lost,
// 0 stale), no shop was ever walked by two workers at once (the sandbox's walker count), every dead worker's
// shops were taken over within the lease + 5 s (a trigger records each token change's acquired_at, against
// the kill time), and `sync status` names a live holder for each shop.
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { openSyncDatabase } from '../../src/sync/engine/database.js';
import { compareWithApi, postgresDatabase, postgresUrl, totals } from '../sync/engine/support.js';
import { type CliProcess, cliSuite } from './helpers.js';

const suite = cliSuite('sync-fleet-workers');

const SHOPS = 30;
const WORKERS = 3;
const LEASE_SECONDS = 3;
const KILLS = 20;
/** Changes the shops get (each as the shop's staff, through the sandbox's trigger route). */
const CHANGES = ['customer.created', 'coupon.created', 'product.updated', 'sale.completed'];

interface LeaseRow {
  shop: string;
  holder: string | null;
  token: number;
  live: boolean;
  acquiredAt: number | null;
}

/** A kill (or stop) of a worker: the shops it held then, and when each was next acquired by another. */
interface Outage {
  worker: string;
  at: number;
  held: Map<string, number>;
  resumed: Map<string, number>;
}

describe.runIf(postgresUrl)('sync --shops: three workers on one PostgreSQL', () => {
  it('survive kill -9 and SIGSTOP: tables equal the API, shops resumed within lease + 5 s, holders named', {
    timeout: 240_000,
  }, async () => {
    const sink = await suite.receiver();
    const registry = join(suite.scratch(), 'shops.json');
    const sandbox = suite.cli.start([
      'sandbox',
      '--json',
      '--port',
      '0',
      '--shops',
      String(SHOPS),
      '--shops-file',
      registry,
      '--records',
      'customers=500',
      '--walk-idle-ms',
      '500',
      '--rate-limit',
      '1000000',
      // Events are recorded (and delivered to a sink): the workers read them from each shop's feed.
      '--forward-to',
      sink.url.replace(/\/shop$/, '/{shop}'),
    ]);
    const ready = await sandbox.until(
      () => sandbox.records().find((record) => record.event === 'ready'),
      60_000,
    );
    const url = ready.url as string;
    const shops = ready.shops as { name: string; key: string }[];
    expect(shops).toHaveLength(SHOPS);
    const database = await postgresDatabase();
    const admin = new pg.Client({ connectionString: database.url });
    const workers = new Map<number, { name: string; process: CliProcess }>();
    let generation = 0;
    let supervising = true;
    const exits: string[] = [];
    const startWorker = (slot: number) => {
      const name = `w${slot}-${++generation}`;
      const running = suite.cli.start([
        'sync',
        '--shops',
        registry,
        '--db',
        database.url,
        '--lease-seconds',
        String(LEASE_SECONDS),
        '--worker',
        name,
        '--interval',
        '1',
        '--json',
      ]);
      workers.set(slot, { name, process: running });
      // The supervisor: a worker that dies is started again under a new name.
      void running.exited.then((code) => {
        exits.push(
          `${name}: ${code ?? running.child.signalCode}${code ? ` (${running.stderr.slice(-3).join(' ').slice(0, 300)})` : ''}`,
        );
        if (supervising && workers.get(slot)?.process === running) startWorker(slot);
      });
    };
    const leases = async (): Promise<LeaseRow[]> => {
      const { rows } = await admin
        .query(
          `SELECT shop, holder, token, expires_at > now() AS live,
             (extract(epoch FROM acquired_at) * 1000)::float8 AS acquired
           FROM sync_shop_leases ORDER BY shop`,
        )
        // No lease table (yet): no shop is leased.
        .catch((error: { code?: string }) => {
          if (error.code === '42P01') return { rows: [] as Record<string, unknown>[] };
          throw error;
        });
      return rows.map((row) => ({
        shop: String(row.shop),
        holder: row.holder === null ? null : String(row.holder),
        token: Number(row.token),
        live: Boolean(row.live),
        acquiredAt: row.acquired === null ? null : Number(row.acquired),
      }));
    };
    let seen: unknown = null;
    const until = async <T>(what: string, test: () => Promise<T | false>, ms = 60_000): Promise<T> => {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = await test();
        if (value !== false) return value;
        if (Date.now() > deadline)
          throw new Error(
            `gave up waiting for ${what} (last seen: ${JSON.stringify(seen)}); exits: ${exits.join(', ')}; workers: ${[...workers.values()].map((worker) => `${worker.name}: ${worker.process.stdout.slice(-15).join('\n')} ${worker.process.stderr.slice(-15).join('\n')}`).join('\n\n')}`,
          );
        await new Promise((wake) => setTimeout(wake, 100));
      }
    };

    let changing = true;
    let changes = 0;
    let lastChangeAt = 0;
    const changer = (async () => {
      while (changing) {
        const shop = shops[randomInt(shops.length)]!;
        const response = await fetch(`${url}/_sandbox/trigger`, {
          method: 'POST',
          headers: { authorization: `Bearer ${shop.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: CHANGES[randomInt(CHANGES.length)] }),
        });
        await response.arrayBuffer();
        if (response.status === 200) changes++;
        lastChangeAt = Date.now();
        await new Promise((wake) => setTimeout(wake, 20));
      }
    })().catch((error: unknown) => {
      // The sandbox gone (the test ending): no more changes.
      if (changing) throw error;
    });

    await admin.connect();
    const outages: Outage[] = [];
    let stopped: Outage | null = null;
    let counts: [string, { now: number; max: number }][] = [];
    try {
      for (let slot = 0; slot < WORKERS; slot++) startWorker(slot);
      // Every shop backfilled once.
      await until('every shop current', async () => {
        const { rows } = await admin
          .query(`SELECT count(*)::int AS n FROM sync_shops WHERE state = 'current'`)
          .catch(() => ({ rows: [{ n: 0 }] }));
        return rows[0].n === SHOPS;
      });

      // Every change of a shop's token, as it happens (a trigger): the first later token of a dead worker's shop
      // is its takeover, however many holders followed before the test looked.
      await admin.query('CREATE TABLE lease_history (shop text, token bigint, acquired float8)');
      await admin.query(`CREATE FUNCTION lease_history_note() RETURNS trigger AS $$ BEGIN
          IF TG_OP = 'INSERT' OR NEW.token IS DISTINCT FROM OLD.token THEN
            INSERT INTO lease_history VALUES (NEW.shop, NEW.token, extract(epoch FROM NEW.acquired_at) * 1000);
          END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql`);
      await admin.query(
        'CREATE TRIGGER lease_history AFTER INSERT OR UPDATE ON sync_shop_leases FOR EACH ROW EXECUTE FUNCTION lease_history_note()',
      );
      /** Each outage's shops: when another worker first acquired each (the first later token). */
      const follow = async () => {
        const { rows } = await admin.query(
          'SELECT shop, token::float8 AS token, acquired FROM lease_history',
        );
        for (const outage of outages) {
          for (const [shop, token] of outage.held) {
            if (outage.resumed.has(shop)) continue;
            const later = rows
              .filter(
                (row: { shop: string; token: number }) => row.shop === shop && Number(row.token) > token,
              )
              .map((row: { acquired: number }) => Number(row.acquired));
            if (later.length > 0) outage.resumed.set(shop, Math.min(...later));
          }
        }
      };
      const outage = async (slot: number, signal: 'SIGKILL' | 'SIGSTOP'): Promise<Outage> => {
        const worker = workers.get(slot)!;
        const rows = await leases();
        const held = new Map(
          rows.filter((row) => row.holder === worker.name && row.live).map((row) => [row.shop, row.token]),
        );
        const entry: Outage = { worker: worker.name, at: Date.now(), held, resumed: new Map() };
        worker.process.child.kill(signal);
        outages.push(entry);
        return entry;
      };

      /** A random worker that holds shops now (one just restarted may hold none yet). */
      const victim = async (): Promise<number> => {
        // A restarted worker may take a while to hold shops on a busy machine: wait for one that does.
        const deadline = Date.now() + 15_000;
        for (;;) {
          const all = await leases();
          const holding = [...workers.entries()].filter(([, worker]) =>
            all.some((row) => row.live && row.holder === worker.name),
          );
          if (holding.length > 0) return holding[randomInt(holding.length)]![0];
          // None (the final asserts count such kills): any worker.
          if (Date.now() > deadline) return randomInt(WORKERS);
          await new Promise((wake) => setTimeout(wake, 100));
        }
      };
      for (let kill = 0; kill < KILLS; kill++) {
        if (kill === KILLS / 2) {
          // One worker stopped for longer than its lease: its shops go to the others; then it resumes.
          const slot = await victim();
          stopped = await outage(slot, 'SIGSTOP');
          const paused = stopped;
          await until('the stopped worker taken over', async () => {
            await follow();
            // Stopped for longer than its lease (its shops may go sooner: its last heartbeat came earlier).
            return (
              paused.resumed.size === paused.held.size && Date.now() - paused.at > LEASE_SECONDS * 1000 + 500
            );
          });
          workers.get(slot)!.process.child.kill('SIGCONT');
        }
        const slot = await victim();
        await outage(slot, 'SIGKILL');
        // The next kill a second later (chaos pacing, no correctness rides on it): takeovers overlap.
        const next = Date.now() + 1_000;
        while (Date.now() < next) {
          await follow();
          await new Promise((wake) => setTimeout(wake, 100));
        }
      }
      await until('every dead worker resumed', async () => {
        await follow();
        return outages.every((entry) => entry.resumed.size === entry.held.size);
      });

      // Quiet: the last changes read by a worker from each shop's feed, every shop current.
      changing = false;
      await changer;
      const quietAt = Math.max(lastChangeAt, Date.now());
      const database2 = await openSyncDatabase(database.url);
      try {
        await until(
          'every shop current after the last change',
          async () => {
            const lines = await database2.all<{ shop: string; state: string; feed_read_at: string | null }>(
              'SELECT "shop", "state", "reason", "lease_holder", "feed_read_at", "last_error" FROM "sync_shops"',
            );
            seen = lines.filter(
              (line) =>
                line.state !== 'current' ||
                !line.feed_read_at ||
                Date.parse(line.feed_read_at) <= quietAt + 1_000,
            );
            return (
              lines.length === SHOPS &&
              lines.every(
                (line) =>
                  line.state === 'current' &&
                  line.feed_read_at !== null &&
                  Date.parse(line.feed_read_at) > quietAt + 1_000,
              )
            );
          },
          60_000,
        );
        const walkers = (await (
          await fetch(`${url}/_sandbox/walkers`, { headers: { authorization: `Bearer ${shops[0]!.key}` } })
        ).json()) as { walkers: Record<string, { now: number; max: number }> };
        counts = Object.entries(walkers.walkers);
        expect(counts).toHaveLength(SHOPS);
        // Every shop was walked. The sandbox counts a walk from its first page's request until --walk-idle-ms
        // after its last page's answer, so two workers reading one shop's list within that time are 2.
        expect(counts.filter(([, count]) => count.max < 1)).toEqual([]);
        // Never two workers on one shop: a lease holder is the only one calling it, a shop given up to
        // rebalance is released after its last call and called again an interval later (above the idle time).
        expect(counts.filter(([, count]) => count.max > 1)).toEqual([]);
        const sums = [];
        for (const shop of shops) {
          const client = new ShopClient({ apiKey: shop.key, baseUrl: url, maxRetries: 0 });
          sums.push({ shop: shop.name, ...totals(await compareWithApi(client, database2, shop.name)) });
        }
        expect(sums.every((sum) => sum.api > 0)).toBe(true);
        expect(sums.filter((sum) => sum.lost + sum.stale + sum.extra > 0)).toEqual([]);
      } finally {
        await database2.close();
      }

      const most = Math.max(...counts.map(([, count]) => count.max));
      const takeovers = outages.flatMap((entry) => [...entry.resumed.values()].map((at) => at - entry.at));
      const kills = outages.filter((entry) => entry !== stopped);
      // The figures of the run (the report reads them).
      console.log(
        JSON.stringify({
          kills: kills.length,
          killsHolding: kills.filter((entry) => entry.held.size > 0).length,
          shopsTakenOver: takeovers.length,
          takeoverMsMax: Math.max(...takeovers),
          takeoverMsMedian: takeovers.sort((a, b) => a - b)[Math.floor(takeovers.length / 2)],
          stoppedShops: stopped?.held.size,
          walkersMax: most,
          over1: counts.filter(([, c]) => c.max > 1).map(([n]) => n),
          stoppedHeld: [...(stopped?.held.keys() ?? [])],
          changes,
        }),
      );
      expect(kills.length).toBeGreaterThanOrEqual(KILLS);
      expect(kills.filter((entry) => entry.held.size === 0)).toEqual([]);
      expect(stopped?.held.size).toBeGreaterThan(0);
      expect(takeovers.length).toBeGreaterThan(KILLS);
      expect(Math.max(...takeovers)).toBeLessThanOrEqual((LEASE_SECONDS + 5) * 1000);
      expect(changes).toBeGreaterThan(KILLS);

      // `sync status` names each shop's lease holder: a live worker's.
      const status = await suite.cli.run(['sync', 'status', '--db', database.url, '--json']);
      expect(status.code).toBe(0);
      const names = new Set([...workers.values()].map((worker) => worker.name));
      const lines = status.records();
      expect(lines).toHaveLength(SHOPS);
      expect(lines.filter((line) => !names.has(line.leaseHolder as string))).toEqual([]);
    } finally {
      changing = false;
      supervising = false;
      await changer.catch(() => undefined);
      await suite.cli.killAll();
      await admin.end().catch(() => undefined);
      await database.cleanup();
    }
  });
});
