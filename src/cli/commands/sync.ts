import { createServer, type Server } from 'node:http';
import { defineCommand } from 'citty';
import { ShopClient } from '../../client.js';
import { readEnv } from '../../internal/env.js';
import { ShopSync, type SyncGap, type SyncProgress } from '../../sync/engine/shop-sync.js';
import { Inbox } from '../../sync/inbox/inbox.js';
import type { InboxStore } from '../../sync/inbox/types.js';
import type { ShopEvent } from '../../webhooks/events.js';
import { createWebhookHandler } from '../../webhooks/handler.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import { httpUrl, list, wholeNumber } from '../parse.js';
import { run } from '../run.js';

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
    shop: { type: 'string', description: 'Name of this shop in the database (default: the API origin)' },
    tables: { type: 'string', description: 'Only these tables, e.g. range_reservation,membership' },
    interval: { type: 'string', description: 'Seconds between reads of the event feed', default: '30' },
    'repair-every': { type: 'string', description: 'Minutes between repair passes', default: '60' },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
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
      const target = await shopTarget(output);
      try {
        const client = new ShopClient({ apiKey: target.apiKey, baseUrl: target.baseUrl });
        const progress = new Progress(output);
        const sync = new ShopSync({
          client,
          db: flags.db,
          shop: flags.shop ?? new URL(target.baseUrl).host,
          maxShare: share,
          ...(list(flags.tables) ? { tables: list(flags.tables)! } : {}),
          onGap: (gap) => printGap(output, gap),
          onProgress: (step) => progress.step(step),
        });
        try {
          if (flags['dry-run']) return await estimate(sync, output, share);
          const migrated = await sync.migrate();
          if (migrated.from !== migrated.to) {
            output.note(
              `schema of ${redactUrl(flags.db)} upgraded from version ${migrated.from} to ${migrated.to}`,
            );
          }
          const result = await sync.runOnce();
          progress.summary('once', result.rows, result.written);
          if (flags.once) return result.skipped.length > 0 ? EXIT.failed : EXIT.ok;
          return await live(sync, output, { flags: { ...flags, secret }, port, intervalMs, repairMs });
        } finally {
          await sync.close();
        }
      } finally {
        await target.close();
      }
    }),
});

/** SHOP_API_KEY and SHOP_API_BASE_URL, or a sandbox of our own on loopback when neither is set. */
async function shopTarget(
  output: Output,
): Promise<{ apiKey: string; baseUrl: string; close: () => Promise<void> }> {
  const apiKey = readEnv('SHOP_API_KEY');
  const baseUrl = readEnv('SHOP_API_BASE_URL');
  if (apiKey && baseUrl) {
    return {
      apiKey,
      baseUrl: httpUrl(baseUrl, 'SHOP_API_BASE_URL').replace(/\/+$/, ''),
      close: async () => undefined,
    };
  }
  if (apiKey || baseUrl)
    throw usageError('set both SHOP_API_KEY and SHOP_API_BASE_URL, or neither for the built-in sandbox');
  const { createSandbox } = await import('../../testing/sandbox.js');
  const sandbox = createSandbox({ clock: 'real' });
  const server = await sandbox.listen();
  output.note(`No SHOP_API_KEY / SHOP_API_BASE_URL: syncing a built-in sandbox shop at ${server.url}`);
  return { apiKey: sandbox.createKey(), baseUrl: server.url, close: () => server.close() };
}

async function estimate(sync: ShopSync, output: Output, share: number): Promise<number> {
  const cost = await sync.estimate();
  for (const stream of cost.streams) {
    output.record(
      { event: 'estimate', ...stream },
      `  ${stream.stream.padEnd(24)} ${stream.exact ? '' : 'at least '}${stream.pages} call${stream.pages === 1 ? '' : 's'}`,
    );
  }
  const rate =
    cost.requestsPerMinute === null
      ? 'no rate limit shown'
      : `${Math.floor(cost.requestsPerMinute * share)} calls a minute (${Math.round(share * 100)}% of ${cost.requestsPerMinute})`;
  output.record(
    {
      event: 'estimate-total',
      calls: cost.calls,
      requestsPerMinute: cost.requestsPerMinute,
      minutes: cost.minutes,
    },
    `backfill: at least ${cost.calls} calls, ${cost.minutes === null ? 'time unknown' : `about ${cost.minutes.toFixed(1)} min`} at ${rate}. Nothing written.`,
  );
  output.note('Streams longer than a page show "at least": the API gives no totals, the walk finds them.');
  return EXIT.ok;
}

/** Webhooks through the inbox (with --listen), the feed as the fallback, repair passes, until a signal. */
async function live(
  sync: ShopSync,
  output: Output,
  options: {
    flags: { db: string; host: string; secret?: string };
    port: number | undefined;
    intervalMs: number;
    repairMs: number;
  },
): Promise<number> {
  let receiver: { server: Server; stop: () => Promise<void> } | null = null;
  if (options.port !== undefined) receiver = await serveReceiver(sync, output, options.flags, options.port);
  let stopped = false;
  let wake: (() => void) | null = null;
  const stop = () => {
    stopped = true;
    wake?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let nextRepair = Date.now() + options.repairMs;
  while (!stopped) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, options.intervalMs).unref();
    });
    if (stopped) break;
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
      output.error(`${(error as Error).name}: ${(error as Error).message}; trying again`);
    }
  }
  await receiver?.stop();
  output.note('stopped; every page and event written is committed with its checkpoint');
  return EXIT.ok;
}

async function serveReceiver(
  sync: ShopSync,
  output: Output,
  flags: { db: string; host: string; secret?: string },
  port: number,
): Promise<{ server: Server; stop: () => Promise<void> }> {
  const store = await openInboxStore(flags.db);
  const inbox = new Inbox(store);
  await inbox.ready();
  const handler = createWebhookHandler({ secret: flags.secret as string, inbox });
  const handle = sync.inboxHandler();
  const worker = inbox.work((event: ShopEvent, context) => handle(event, context), {
    onError: (error) => output.error(`inbox: ${(error as Error).message}`),
  });
  const server = createServer((request, response) => void handler.node(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new CliError(
          `cannot listen on ${flags.host}:${port} (${(error as NodeJS.ErrnoException).code ?? error.message})`,
          EXIT.unreachable,
        ),
      ),
    );
    server.listen(port, flags.host, resolve);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  output.record(
    { event: 'listening', url: `http://${flags.host}:${bound}/` },
    `Receiving webhooks at http://${flags.host}:${bound}/ into the inbox of ${redactUrl(flags.db)}`,
  );
  return {
    server,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await worker.stop();
      await store.close();
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
    const text = `${step.phase} ${step.stream}: ${step.rows} rows (${step.written} written), ${rate}/s`;
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
function redactUrl(db: string): string {
  return db.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^@]*@/i, '$1:[redacted]@');
}
