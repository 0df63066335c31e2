// One lease worker in its own process, as leases.test.ts runs several of them on one PostgreSQL database: a
// PostgresShopLeases over SHOPS shops, and for every lease it acquires a writer that, every WRITE_MS, writes a
// row in `lease_writes` inside a transaction that calls check() first. The writer keeps the lease it was
// given until check() refuses it (a fleet slow to notice onLost, the worst case): a stale worker's writes
// reach the fence. Every acquisition, loss, refusal and error is one JSON line appended to EVENTS (a file),
// timed by the monotonic clock (performance.timeOrigin + performance.now(): the wall clock may be mocked).
// On the IPC message `{ step: ms }` the process's Date jumps by `ms` (a wall-clock step). Bundled by esbuild.
import { appendFileSync } from 'node:fs';
import pg from 'pg';
import { LeaseLostError, PostgresShopLeases, type ShopLease } from '../../../src/sync/fleet/leases.js';

const env = process.env as Record<string, string>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const at = () => Math.round(performance.timeOrigin + performance.now());
const holder = env.HOLDER!;
const log = (entry: Record<string, unknown>) =>
  appendFileSync(env.EVENTS!, `${JSON.stringify({ at: at(), holder, ...entry })}\n`);
const WRITE_MS = Number(env.WRITE_MS ?? 250);

// A wall clock that can be stepped: Date.now and new Date() follow `offset`.
let offset = 0;
const RealDate = Date;
class SteppedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as [number]));
  }
  static override now(): number {
    return RealDate.now() + offset;
  }
}
globalThis.Date = SteppedDate as DateConstructor;
process.on('message', (message: { step?: number }) => {
  if (typeof message.step === 'number') {
    offset += message.step;
    log({ kind: 'step', offset });
  }
});

const pool = new pg.Pool({ connectionString: env.PG_URL, max: 4, application_name: 'lease-test-writer' });
pool.on('error', () => undefined);

const errorName = (error: unknown) => (error instanceof Error ? error.name : typeof error);

async function writeOnce(lease: ShopLease): Promise<'written' | 'refused' | 'failed'> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch {
    return 'failed';
  }
  let broken = false;
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    await leases.check(client, lease);
    await client.query('INSERT INTO lease_writes (shop, token, holder) VALUES ($1, $2, $3)', [
      lease.shop,
      lease.token,
      holder,
    ]);
    await client.query('COMMIT');
    return 'written';
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    if (error instanceof LeaseLostError) return 'refused';
    log({ kind: 'write-error', shop: lease.shop, name: errorName(error), message: String(error) });
    return 'failed';
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

async function writer(lease: ShopLease): Promise<void> {
  for (;;) {
    const outcome = await writeOnce(lease);
    if (outcome === 'refused') {
      log({ kind: 'refused', shop: lease.shop, token: lease.token });
      return;
    }
    await sleep(WRITE_MS);
  }
}

const leases = new PostgresShopLeases({
  connectionString: env.PG_URL!,
  holder,
  leaseMs: Number(env.LEASE_MS ?? 3000),
  ...(env.HEARTBEAT_MS ? { heartbeatMs: Number(env.HEARTBEAT_MS) } : {}),
  onAcquired(lease) {
    log({ kind: 'acquired', shop: lease.shop, token: lease.token });
    void writer(lease);
  },
  onLost(shop, reason) {
    log({ kind: 'lost', shop, reason });
  },
  onError(error) {
    log({ kind: 'error', name: errorName(error), message: String((error as Error)?.message ?? error) });
  },
});

const shops = Array.from({ length: Number(env.SHOPS) }, (_, i) => `shop-${String(i).padStart(2, '0')}`);
async function main(): Promise<void> {
  for (;;) {
    try {
      await leases.start(shops);
      break;
    } catch (error) {
      log({ kind: 'error', name: errorName(error), message: String((error as Error)?.message ?? error) });
      await sleep(200);
    }
  }
  log({ kind: 'started' });
  process.send?.('ready');
}
process.on('SIGTERM', () => {
  void leases.stop().then(() => process.exit(0));
});
void main();
