import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { ShopClient } from '../../client.js';
import { HookError } from '../../core/errors/transport-errors.js';
import type { ShopHooks } from '../../core/observe/hooks.js';
import { SYNC_TABLES } from '../../generated/sync-schema.js';
import { readEnv } from '../../internal/env.js';
import { withoutPassword } from '../../internal/redact.js';
import { ShopSync, type SyncGap, type SyncProgress } from '../../sync/engine/shop-sync.js';
import { Inbox } from '../../sync/inbox/inbox.js';
import type { InboxStore } from '../../sync/inbox/types.js';
import type { ShopEvent } from '../../webhooks/events.js';
import { createWebhookHandler } from '../../webhooks/handler.js';
import { CONTROL_PREFIX } from '../control.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import { httpUrl, list, wholeNumber } from '../parse.js';
import { nearest } from '../strict.js';
import { syncDeadLettersCommand, syncReplayDeadCommand } from './sync-dead.js';
import { orFleet } from './sync-fleet.js';
import { syncStatusCommand } from './sync-status.js';

/** `shop-mgmt sync`: the shop's records into SQLite or Postgres, kept current. */
export const syncCommand = defineCommand({
  meta: {
    name: 'sync',
    description:
      'Copy the shop into a database (SQLite file or postgres:// URL) and keep it current: backfill, events from webhooks and the feed, repair. Without SHOP_API_KEY and SHOP_API_BASE_URL it syncs a built-in sandbox shop.',
  },
  args: {
    db: { type: 'string', description: 'A SQLite file or a postgres:// URL', default: './shop.db' },
    once: { type: 'boolean', description: 'Backfill and catch up from the feed, then exit (cron, CI)' },
    'dry-run': {
      type: 'boolean',
      description: 'Estimate the calls a backfill needs at the plan rate; write nothing',
    },
    'max-share': {
      type: 'string',
      description: "Most of the shop's rate limit to use, e.g. 50%",
      default: '100%',
    },
    listen: {
      type: 'string',
      description: 'Serve the webhook receiver on this port (127.0.0.1) into the inbox',
    },
    host: { type: 'string', description: 'Address the receiver listens on', default: '127.0.0.1' },
    secret: {
      type: 'string',
      description:
        "The webhook endpoint's signing secret (whsec_...), with --listen (default: SHOP_WEBHOOK_SECRET, which keeps it out of ps)",
    },
    shop: {
      type: 'string',
      description:
        "Name of this shop's rows in the database, one you choose and keep (required against a live shop; a sandbox shop gets one of its own)",
    },
    tables: { type: 'string', description: 'Only these tables, e.g. range_reservation,membership' },
    interval: { type: 'string', description: 'Seconds between reads of the event feed', default: '30' },
    'repair-every': { type: 'string', description: 'Minutes between repair passes', default: '60' },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
    shops: {
      type: 'string',
      description: 'A shops.json (or YAML) registry: every shop in it from one process (docs/many-shops.md)',
    },
    'lease-seconds': {
      type: 'string',
      description:
        'With --shops and a postgres:// --db: seconds a worker holds a shop without a heartbeat (default 15)',
    },
    worker: {
      type: 'string',
      description:
        "With --shops and a postgres:// --db: this worker's name in the lease table (default hostname-pid)",
    },
    'max-attempts': {
      type: 'string',
      description: 'With --shops: failed applies before a webhook delivery is a dead letter (default 10)',
    },
    'retention-days': {
      type: 'string',
      description: 'With --shops: days applied webhook deliveries are kept in sync_shop_inbox (default 30)',
    },
  },
  subCommands: {
    status: syncStatusCommand,
    'dead-letters': syncDeadLettersCommand,
    'replay-dead': syncReplayDeadCommand,
  },
  run: ({ args: flags }) =>
    orFleet(flags, async (output) => {
      const share = percent(flags['max-share']);
      const intervalMs = wholeNumber(flags.interval, 'interval', 1, 86_400)! * 1000;
      const repairMs = wholeNumber(flags['repair-every'], 'repair-every', 1, 10_080)! * 60_000;
      const port = wholeNumber(flags.listen, 'listen', 0, 65_535);
      // The environment first in the docs: a flag's value is visible to every user in `ps`.
      const secret = flags.secret ?? readEnv('SHOP_WEBHOOK_SECRET');
      if (port !== undefined && !secret?.startsWith('whsec_')) {
        throw usageError(
          '--listen needs the signing secret of the shop webhook endpoint: SHOP_WEBHOOK_SECRET=whsec_... or --secret whsec_...',
        );
      }
      const db = checkDbTarget(flags.db);
      const tables = checkTables(list(flags.tables));
      const stopping = new Stopping();
      // The port before anything else: a busy one fails now, not after a backfill of the whole shop.
      const receiver = port !== undefined ? await bindReceiver(flags.host, port) : null;
      try {
        const target = await shopTarget(output);
        try {
          const shop = flags.shop ?? (await defaultShopName(target, output));
          const client = new ShopClient({
            apiKey: target.apiKey,
            baseUrl: target.baseUrl,
            hooks: stopping.hooks,
          });
          const progress = new Progress(output);
          const sync = new ShopSync({
            client,
            // A dry run writes nothing: a SQLite file that is not there yet is not made.
            db: flags['dry-run'] ? dryRunDb(db) : db,
            shop,
            maxShare: share,
            ...(tables ? { tables } : {}),
            onGap: (gap) => printGap(output, gap),
            onProgress: (step) => progress.step(step),
          });
          const began = new Date().toISOString();
          try {
            if (flags['dry-run']) return await estimate(sync, output, share);
            const migrated = await sync.migrate();
            if (migrated.from !== migrated.to) {
              output.note(
                `schema of ${withoutPassword(db)} upgraded from version ${migrated.from} to ${migrated.to}`,
              );
            }
            if (receiver) await receiver.attach(db, secret as string, output);
            const result = await sync.runOnce();
            progress.summary('once', result.rows, result.written);
            if (flags.once) return result.skipped.length > 0 ? EXIT.failed : EXIT.ok;
            return await live(sync, output, { receiver, stopping, intervalMs, repairMs });
          } catch (error) {
            if (!stopping.caused(error)) throw error;
            // Ctrl-C or SIGTERM in a pass: the pass stopped at its next call; its run row says so.
            output.stopSpinner();
            output.note(`${stopping.reason()}: every page written is committed with its checkpoint`);
            return flags.once || flags['dry-run'] ? EXIT.signal[stopping.signal!] : EXIT.ok;
          } finally {
            if (stopping.signal && !flags['dry-run']) {
              await markInterrupted(sync, stopping.reason(), began).catch((error: Error) =>
                output.error(`could not mark the run interrupted (it stays failed): ${error.message}`),
              );
            }
            await sync.close();
          }
        } finally {
          await target.close();
        }
      } finally {
        await receiver?.close();
        stopping.dispose();
      }
    }),
});

/**
 * The --db target: a postgres:// URL, or a SQLite file in a folder that exists and can be written. Another
 * scheme is a usage error, and a path that cannot work says why before any driver is loaded.
 */
function checkDbTarget(db: string): string {
  if (/^postgres(ql)?:\/\//i.test(db)) return db;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(db);
  if (scheme) {
    throw usageError(`--db takes a SQLite file path or a postgres:// URL; ${scheme[1]}:// is not supported`);
  }
  if (db === ':memory:') return db;
  const file = resolve(db);
  const folder = dirname(file);
  const problem = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  try {
    if (!statSync(folder).isDirectory()) throw usageError(`--db ${db}: ${folder} is not a folder`);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = problem(error);
    throw usageError(
      code === 'ENOENT'
        ? `--db ${db}: the folder ${folder} does not exist (create it first)`
        : `--db ${db}: cannot use the folder ${folder} (${code})`,
    );
  }
  if (existsSync(file)) {
    if (statSync(file).isDirectory()) throw usageError(`--db ${db} is a folder, not a SQLite file`);
    try {
      accessSync(file, constants.R_OK | constants.W_OK);
    } catch (error) {
      throw usageError(`--db ${db}: the file cannot be read and written (${problem(error)})`);
    }
  }
  try {
    // SQLite writes its -wal and -shm files beside the database.
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw usageError(`--db ${db}: cannot write in the folder ${folder} (${problem(error)})`);
  }
  return db;
}

/** A dry run's database: the target when it is there to read checkpoints from, else nothing on disk. */
function dryRunDb(db: string): string {
  if (/^postgres(ql)?:\/\//i.test(db) || db === ':memory:') return db;
  return existsSync(db) ? db : ':memory:';
}

/**
 * The first SIGINT or SIGTERM: it ends the live loop's wait, and fails the next API call of a pass under way
 * (a request hook), so the pass stops between pages and the engine records its run. A second signal ends
 * the process at once (the handlers are gone by then).
 */
class Stopping {
  signal: 'SIGINT' | 'SIGTERM' | null = null;
  readonly #wakers = new Set<() => void>();
  readonly #onInt = () => this.#stop('SIGINT');
  readonly #onTerm = () => this.#stop('SIGTERM');
  readonly hooks: ShopHooks = {
    beforeRequest: [() => this.#check()],
    beforeRetry: [() => this.#check()],
  };

  constructor() {
    process.once('SIGINT', this.#onInt);
    process.once('SIGTERM', this.#onTerm);
  }

  /** The text the interrupted pass fails with, and its run row's error. */
  reason(): string {
    return `interrupted by ${this.signal}`;
  }

  /** Whether `error` is the interruption (rather than a failure of its own). */
  caused(error: unknown): boolean {
    return this.signal !== null && error instanceof HookError && error.message === this.reason();
  }

  /** Resolves after `ms`, or at once on the signal. The timer holds the process up: nothing else may. */
  sleep(ms: number): Promise<void> {
    if (this.signal) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakers.add(wake);
    });
  }

  dispose(): void {
    process.off('SIGINT', this.#onInt);
    process.off('SIGTERM', this.#onTerm);
  }

  #stop(signal: 'SIGINT' | 'SIGTERM'): void {
    if (this.signal) return;
    this.signal = signal;
    this.dispose();
    for (const wake of [...this.#wakers]) wake();
  }

  #check(): void {
    if (this.signal) throw new HookError(this.reason());
  }
}

/**
 * A pass the signal stopped: the engine ended its `sync_runs` row `failed` with the interruption as its
 * error; it becomes `interrupted`, so a stop asked for is not counted as a failure.
 */
async function markInterrupted(sync: ShopSync, reason: string, since: string): Promise<void> {
  const database = await sync.database();
  await database.run(
    'UPDATE "sync_runs" SET "status" = ? WHERE "shop" = ? AND "status" = ? AND "error" = ? AND "started_at" >= ?',
    ['interrupted', sync.shop, 'failed', reason, since],
  );
}

/** Where the shop is: its key and address, whether it is the built-in sandbox, and how to let it go. */
interface ShopTarget {
  readonly apiKey: string;
  readonly baseUrl: string;
  /** The sandbox this command started itself (no SHOP_API_KEY / SHOP_API_BASE_URL). */
  readonly builtIn: boolean;
  close(): Promise<void>;
}

/**
 * The name of the shop's rows without `--shop`. Every live shop shares the service's one address, so the
 * address names no shop: a live shop has no default (a usage error says to choose a name). A sandbox (the
 * built-in one, or a `shop-mgmt sandbox` process, which answers its control surface for the key) is named from
 * a hash of its key, so two sandbox shops on one address never share rows; the key itself is never written.
 */
async function defaultShopName(target: ShopTarget, output: Output): Promise<string> {
  if (!target.builtIn && !(await isSandboxProcess(target))) {
    throw usageError(
      `sync needs --shop NAME against a live shop: the name of this shop's rows in the database, one you choose (e.g. --shop north-store) and give on every run. Every shop shares the API's address (${new URL(target.baseUrl).host}), so it cannot tell two shops apart in one database. Rows synced before without --shop are named by that address: --shop ${new URL(target.baseUrl).host} keeps them.`,
    );
  }
  const name = `sandbox-${createHash('sha256').update(target.apiKey).digest('hex').slice(0, 12)}`;
  output.note(`no --shop: this sandbox shop's rows are named ${name} (from a hash of its key)`);
  return name;
}

/** True when `target` is a `shop-mgmt sandbox` process: its control surface answers the key's request. */
async function isSandboxProcess(target: ShopTarget): Promise<boolean> {
  try {
    const response = await fetch(`${target.baseUrl}${CONTROL_PREFIX}triggers`, {
      headers: { Authorization: `Bearer ${target.apiKey}` },
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return false;
    }
    const body = (await response.json()) as { triggers?: unknown } | null;
    return Array.isArray(body?.triggers);
  } catch {
    // Unreachable, not JSON, a redirect: not a sandbox process (the sync reports a shop it cannot reach).
    return false;
  }
}

/** SHOP_API_KEY and SHOP_API_BASE_URL, or a sandbox of our own on loopback when neither is set. */
async function shopTarget(output: Output): Promise<ShopTarget> {
  const apiKey = readEnv('SHOP_API_KEY');
  const baseUrl = readEnv('SHOP_API_BASE_URL');
  if (apiKey && baseUrl) {
    return {
      apiKey,
      baseUrl: httpUrl(baseUrl, 'SHOP_API_BASE_URL').replace(/\/+$/, ''),
      builtIn: false,
      close: async () => undefined,
    };
  }
  if (apiKey || baseUrl)
    throw usageError('set both SHOP_API_KEY and SHOP_API_BASE_URL, or neither for the built-in sandbox');
  const { createSandbox } = await import('../../testing/sandbox.js');
  const sandbox = createSandbox({ clock: 'real' });
  const server = await sandbox.listen();
  output.note(`No SHOP_API_KEY / SHOP_API_BASE_URL: syncing a built-in sandbox shop at ${server.url}`);
  return { apiKey: sandbox.createKey(), baseUrl: server.url, builtIn: true, close: () => server.close() };
}

/**
 * Above this many calls a minute a shop has no limit worth pacing for (a sandbox with `--rate-limit off`
 * sends the largest safe integer): the estimate says so rather than print a rate no server keeps.
 */
const NO_PRACTICAL_LIMIT = 1_000_000;

async function estimate(sync: ShopSync, output: Output, share: number): Promise<number> {
  const cost = await sync.estimate();
  for (const stream of cost.streams) {
    output.record(
      { event: 'estimate', ...stream },
      `  ${stream.stream.padEnd(24)} ${stream.exact ? '' : 'at least '}${stream.pages} call${stream.pages === 1 ? '' : 's'}`,
    );
  }
  const unlimited = cost.requestsPerMinute !== null && cost.requestsPerMinute > NO_PRACTICAL_LIMIT;
  const perMinute = unlimited ? null : cost.requestsPerMinute;
  const minutes = unlimited ? null : cost.minutes;
  const rate = unlimited
    ? 'no rate limit in effect'
    : perMinute === null
      ? 'no rate limit shown'
      : `${Math.floor(perMinute * share)} calls a minute (${Math.round(share * 100)}% of ${perMinute})`;
  output.record(
    {
      event: 'estimate-total',
      calls: cost.calls,
      requestsPerMinute: perMinute,
      minutes,
      ...(unlimited ? { rateLimit: 'none' } : {}),
    },
    `backfill: at least ${cost.calls} calls, ${minutes === null ? 'time unknown' : `about ${minutes.toFixed(1)} min`} at ${rate}. Nothing written.`,
  );
  output.note('Streams longer than a page show "at least": the API gives no totals, the walk finds them.');
  return EXIT.ok;
}

/** Webhooks through the inbox (with --listen), the feed as the fallback, repair passes, until a signal. */
async function live(
  sync: ShopSync,
  output: Output,
  options: {
    receiver: Receiver | null;
    stopping: Stopping;
    intervalMs: number;
    repairMs: number;
  },
): Promise<number> {
  const { stopping } = options;
  options.receiver?.work(sync, output);
  const seconds = options.intervalMs / 1000;
  output.record(
    { event: 'live', intervalSeconds: seconds, webhooks: options.receiver !== null },
    `Keeping the database current: the feed every ${seconds} s${options.receiver ? ', webhooks through the inbox' : ''}, until Ctrl-C`,
  );
  let nextRepair = Date.now() + options.repairMs;
  while (!stopping.signal) {
    // A timer that holds the event loop: the shop in another process, and a SQLite file, hold nothing, and
    // a process with nothing left to wait on would end here with Node's exit code 13.
    await stopping.sleep(options.intervalMs);
    if (stopping.signal) break;
    try {
      await sync.catchUp();
      if (Date.now() >= nextRepair) {
        const repair = await sync.repair();
        output.record(
          { event: 'repair', repaired: repair.repaired, rows: repair.rows },
          `repair: ${repair.rows} rows read, ${repair.repaired} fixed`,
        );
        nextRepair = Date.now() + options.repairMs;
      }
    } catch (error) {
      if (stopping.caused(error)) break;
      output.error(`${(error as Error).name}: ${(error as Error).message}; trying again`);
    }
  }
  await options.receiver?.close();
  output.note(`stopped (${stopping.signal}); every page and event written is committed with its checkpoint`);
  return EXIT.ok;
}

/**
 * The webhook receiver of --listen: bound before anything else, answering 503 until the inbox is open; from
 * then on each verified delivery is written to the inbox (during the backfill too), and its worker applies
 * them once the backfill is done.
 */
interface Receiver {
  attach(db: string, secret: string, output: Output): Promise<void>;
  work(sync: ShopSync, output: Output): void;
  close(): Promise<void>;
}

async function bindReceiver(host: string, port: number): Promise<Receiver> {
  let handle: ((request: IncomingMessage, response: ServerResponse) => void) | null = null;
  const server = createServer((request, response) => {
    if (handle) return handle(request, response);
    response.writeHead(503, { 'Retry-After': '5' }).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      const code = (error as NodeJS.ErrnoException).code ?? error.message;
      reject(
        new CliError(
          code === 'EADDRINUSE'
            ? `cannot listen on ${host}:${port}: the port is in use (EADDRINUSE); choose another --listen port. Nothing was synced.`
            : `cannot listen on ${host}:${port} (${code}). Nothing was synced.`,
          EXIT.unreachable,
        ),
      );
    });
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}/`;
  let inbox: { store: InboxStore; inbox: Inbox; db: string } | null = null;
  let worker: { stop: () => Promise<void> } | null = null;
  let closed = false;
  return {
    async attach(db, secret, out) {
      const store = await openInboxStore(db);
      inbox = { store, inbox: new Inbox(store), db };
      await inbox.inbox.ready();
      const handler = createWebhookHandler({ secret, inbox: inbox.inbox });
      handle = (request, response) => void handler.node(request, response);
      out.record(
        { event: 'bound', url },
        `Bound ${url}: deliveries are kept in the inbox of ${withoutPassword(db)} and applied after the backfill`,
      );
    },
    work(sync, out) {
      if (!inbox) return;
      const handler = sync.inboxHandler();
      worker = inbox.inbox.work((event: ShopEvent, context) => handler(event, context), {
        onError: (error) => out.error(`inbox: ${(error as Error).message}`),
      });
      out.record(
        { event: 'listening', url },
        `Receiving webhooks at ${url} into the inbox of ${withoutPassword(inbox.db)}`,
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await worker?.stop();
      await inbox?.store.close();
    },
  };
}

/** The inbox beside the sync tables: the same SQLite file or Postgres database. */
async function openInboxStore(db: string): Promise<InboxStore> {
  if (/^postgres(ql)?:\/\//i.test(db)) {
    const { PostgresInboxStore } = await import('../../sync/inbox/postgres.js');
    return PostgresInboxStore.connect(db);
  }
  const { SqliteInboxStore } = await import('../../sync/inbox/sqlite.js');
  return SqliteInboxStore.open(db);
}

/** Per stream: a live line on a TTY, one line when done when piped, JSON records with --json. */
class Progress {
  readonly #started = new Map<string, number>();
  readonly #begin = performance.now();
  /** When the last step ended: the next stream's walk began then. */
  #lastStep = performance.now();

  constructor(private readonly output: Output) {}

  step(step: SyncProgress): void {
    const started = this.#started.get(step.stream) ?? this.#lastStep;
    this.#started.set(step.stream, started);
    this.#lastStep = performance.now();
    const seconds = Math.max((performance.now() - started) / 1000, 0.001);
    const rate = Math.round(step.rows / seconds);
    const text =
      step.phase === 'events'
        ? `feed: ${step.rows} events (${step.written} rows written), ${rate}/s`
        : `${step.phase} ${step.stream}: ${step.rows} rows (${step.written} written), ${rate}/s`;
    if (!step.done) {
      this.output.spin(text);
      return;
    }
    this.output.stopSpinner();
    this.#started.delete(step.stream);
    this.output.record(
      { event: 'stream', ...step, seconds: Number(seconds.toFixed(3)), rowsPerSecond: rate },
      text,
    );
  }

  summary(phase: string, rows: number, written: number): void {
    const seconds = (performance.now() - this.#begin) / 1000;
    this.output.record(
      { event: 'done', phase, rows, written, seconds: Number(seconds.toFixed(3)) },
      `${phase}: ${rows} rows read, ${written} written in ${seconds.toFixed(1)}s`,
    );
  }
}

function printGap(output: Output, gap: SyncGap): void {
  output.note(`warning: gap in ${gap.stream} (${gap.reason}): ${gap.detail}`);
  if (output.mode.json) output.record({ event: 'gap', ...gap }, '');
}

/** `50%` or `0.5` -> 0.5. */
function percent(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(value.trim());
  const share = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!(share > 0 && share <= 1))
    throw usageError(
      `--max-share must be a share such as 50% (above 0, at most 100%), got ${JSON.stringify(value)}`,
    );
  return share;
}

/** A postgres:// URL without its password, for messages. */

/** `--tables`, each name one of the tables a list fills: a typo is a usage error with the nearest name. */
function checkTables(tables: string[] | undefined): string[] | undefined {
  const known = SYNC_TABLES.filter((table) => table.operation !== null).map((table) => table.table);
  for (const name of tables ?? []) {
    if (known.includes(name)) continue;
    const hint = nearest(name, known);
    throw usageError(
      `--tables: no sync table ${JSON.stringify(name)}${hint ? `; did you mean ${hint}?` : ''} (tables: ${known.join(', ')})`,
    );
  }
  return tables;
}
