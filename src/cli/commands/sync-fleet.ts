// `shop-mgmt sync --shops FILE`: every shop of a registry from one process (ShopFleet), into one database,
// with one webhook entrance (`--listen`, deliveries to /webhooks/<shop>). See docs/many-shops.md.
import { hostname } from 'node:os';
import { FleetDeliveryDeadError, FleetPruneError, ShopFleet } from '../../sync/fleet/fleet.js';
import { PostgresShopLeases } from '../../sync/fleet/leases.js';
import { loadShops, ShopRegistryError } from '../../sync/fleet/registry.js';
import { EXIT, usageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import { wholeNumber } from '../parse.js';
import { run, untilSignal } from '../run.js';

/** The flags of `sync` the fleet reads; the single-shop ones are refused with --shops. */
export interface FleetFlags {
  readonly shops: string;
  readonly db: string;
  readonly once?: boolean | undefined;
  readonly listen?: string | undefined;
  readonly host: string;
  readonly interval: string;
  readonly json?: boolean | undefined;
  /** With a postgres:// --db: seconds a shop's lease lives without a heartbeat (default 15). */
  readonly 'lease-seconds'?: string | undefined;
  /** With a postgres:// --db: this worker's name in the lease table (default hostname-pid). */
  readonly worker?: string | undefined;
  /** Failed applies before a delivery is dead (default 10). */
  readonly 'max-attempts'?: string | undefined;
  /** Days applied deliveries are kept (default 30). */
  readonly 'retention-days'?: string | undefined;
}

/** Flags that only the fleet reads. */
const FLEET_ONLY = ['lease-seconds', 'worker', 'max-attempts', 'retention-days'] as const;

/** Flags that name one shop's settings: with --shops each shop's entry in the registry says them. */
const SINGLE_SHOP = ['shop', 'secret', 'tables', 'dry-run'] as const;

/** `sync`'s body for one shop, or the fleet when `--shops` names a registry. */
export function orFleet(
  flags: { readonly shops?: string | undefined; readonly json?: boolean | undefined } & Omit<
    FleetFlags,
    'shops' | 'json'
  >,
  single: (output: Output) => Promise<number>,
): Promise<void> {
  if (flags.shops) return runFleet({ ...flags, shops: flags.shops });
  const given = FLEET_ONLY.filter((flag) => flags[flag] !== undefined);
  if (given.length > 0) {
    return run(flags.json, async () => {
      throw usageError(
        `${given.map((flag) => `--${flag}`).join(' and ')} ${given.length === 1 ? 'is' : 'are'} for the shops of a registry: give --shops FILE`,
      );
    });
  }
  return run(flags.json, single);
}

/** Runs `sync --shops`: exits 0 when every shop is current (with --once), 1 when one is not. */
export function runFleet(flags: FleetFlags): Promise<void> {
  return run(flags.json, async (output) => {
    for (const flag of SINGLE_SHOP) {
      const value = (flags as unknown as Record<string, unknown>)[flag];
      if (value !== undefined && value !== false) {
        throw usageError(
          `--${flag} names one shop: with --shops each shop's entry in ${flags.shops} says it (docs/many-shops.md)`,
        );
      }
    }
    const share = (flags as unknown as Record<string, unknown>)['max-share'];
    if (share !== undefined && share !== '100%') {
      throw usageError('--max-share is per shop with --shops: write "maxShare" in its registry entry');
    }
    const port = wholeNumber(flags.listen, 'listen', 0, 65_535);
    const intervalSeconds = wholeNumber(flags.interval, 'interval', 1, 86_400)!;
    let shops: Awaited<ReturnType<typeof loadShops>>;
    try {
      shops = await loadShops(flags.shops);
    } catch (error) {
      if (error instanceof ShopRegistryError) throw usageError(error.message);
      throw error;
    }
    if (shops.length === 0) throw usageError(`${flags.shops} lists no shop`);
    const postgres = /^postgres(ql)?:\/\//i.test(flags.db);
    const leaseSeconds = wholeNumber(flags['lease-seconds'] ?? '15', 'lease-seconds', 1, 3_600)!;
    const maxAttempts = wholeNumber(flags['max-attempts'], 'max-attempts', 1, 1000);
    const retentionDays = wholeNumber(flags['retention-days'], 'retention-days', 0, 36_500);
    const worker = flags.worker ?? `${hostname()}-${process.pid}`;
    if (worker === '' || worker.length > 200)
      throw usageError('--worker must be a name of 1 to 200 characters');
    if (!postgres && (flags['lease-seconds'] !== undefined || flags.worker !== undefined)) {
      throw usageError(
        '--lease-seconds and --worker share shops among workers on one PostgreSQL database: a SQLite file has one worker',
      );
    }
    const fleet = new ShopFleet({
      shops,
      db: flags.db,
      // On PostgreSQL, several `sync --shops` processes (on one or many machines) share the shops by lease;
      // a SQLite file is one process's, which holds every shop (the fleet's default).
      ...(postgres
        ? {
            leases: (events) =>
              new PostgresShopLeases({
                connectionString: flags.db,
                holder: worker,
                leaseMs: leaseSeconds * 1000,
                ...events,
                onError: (error) => output.note(`leases: ${(error as Error).message ?? String(error)}`),
              }),
          }
        : {}),
      ...(port !== undefined ? { listen: port, host: flags.host } : {}),
      intervalSeconds,
      ...(maxAttempts !== undefined ? { maxAttempts } : {}),
      ...(retentionDays !== undefined ? { retention: { doneMs: retentionDays * 86_400_000 } } : {}),
      onChange: (change) => printChange(output, change),
      onError: (error, shop) =>
        output.note(
          `${shop ? `${shop}: ` : ''}${error instanceof FleetDeliveryDeadError || error instanceof FleetPruneError ? '' : 'health not written (its status line shows stale): '}${(error as Error).message ?? String(error)}`,
        ),
      onListening: (url) =>
        output.record({ event: 'listening', url }, `Receiving webhooks at ${url}/webhooks/<shop>`),
    });
    if (flags.once) {
      try {
        const results = await fleet.runOnce();
        for (const result of results) {
          output.record(
            { event: 'done', ...result },
            `${result.shop}: ${result.state}${result.reason ? ` (${result.reason})` : ''}, ${result.rows} rows read, ${result.written} written${result.error ? `: ${result.error}` : ''}`,
          );
        }
        const troubled = results.filter((result) => result.state !== 'current');
        if (troubled.length > 0) {
          output.note(
            `${troubled.length} of ${results.length} shops are not current: ${troubled.map((r) => r.shop).join(', ')}`,
          );
          return EXIT.failed;
        }
        return EXIT.ok;
      } finally {
        await fleet.stop();
      }
    }
    const running = fleet.run();
    let failed: unknown = null;
    running.catch((error: unknown) => {
      failed = error;
    });
    const signal = await Promise.race([untilSignal(), running.then(() => null)]);
    if (failed) throw failed;
    output.note(
      `stopping (${signal ?? 'done'}): every page and event written is committed with its checkpoint`,
    );
    await fleet.stop();
    return EXIT.ok;
  });
}

function printChange(
  output: Output,
  change: { shop: string; state: string; reason: string | null; error: string | null },
): void {
  output.record(
    { event: 'shop', ...change },
    `${change.shop}: ${change.state}${change.reason ? ` (${change.reason})` : ''}${change.error && change.state !== 'current' ? `: ${change.error}` : ''}`,
  );
}
