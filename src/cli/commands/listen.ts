import { defineCommand } from 'citty';
import { ShopClient } from '../../client.js';
import { AuthenticationError, PermissionDeniedError } from '../../core/errors/api-errors.js';
import { ConnectionError } from '../../core/errors/transport-errors.js';
import { readEnv } from '../../internal/env.js';
import { EventCatchUp } from '../../sync/catch-up.js';
import type { Inbox } from '../../sync/inbox/inbox.js';
import type { EventType } from '../../webhooks/events.js';
import { EXIT, usageError } from '../exit-codes.js';
import { ForwardError, Forwarder, type ForwardResult } from '../forwarder.js';
import { ListenFileStore } from '../listen-file.js';
import { sandboxDoorbell } from '../live-log.js';
import { clockTime, maskKey, type Output } from '../output.js';
import { httpUrl, list, wholeNumber } from '../parse.js';
import { run } from '../run.js';
import { startingPoint } from '../since.js';

/** `shop-mgmt listen`: the event feed delivered to a local receiver as signed webhooks. */
export const listenCommand = defineCommand({
  meta: {
    name: 'listen',
    description:
      'Follow GET /v1/events of SHOP_API_BASE_URL with SHOP_API_KEY and deliver each event to a local receiver, signed as the service signs webhooks. No tunnel needed.',
  },
  args: {
    'forward-to': {
      type: 'string',
      description: 'Your receiver, e.g. http://localhost:3000/webhooks/shop (or --inbox)',
    },
    inbox: {
      type: 'string',
      description:
        'Write each event into a durable inbox instead of forwarding: a SQLite file (inbox.db) or a postgres:// URL',
    },
    events: { type: 'string', description: 'Only these types, e.g. range.reservation.booked,sale.completed' },
    since: {
      type: 'string',
      description: 'Start point when there is no checkpoint: a duration back (2h) or an event id',
    },
    'print-secret': { type: 'boolean', description: 'Print the local signing secret (whsec_...) and exit' },
    checkpoint: {
      type: 'string',
      description: 'Checkpoint and secret file',
      default: '.shop-mgmt/listen.json',
    },
    interval: { type: 'string', description: 'Seconds between polls of the feed', default: '5' },
    'requests-per-minute': {
      type: 'string',
      description: "Throttle, below the shop's rate limit",
      default: '50',
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const inboxAt = flags.inbox;
      if ((flags['forward-to'] === undefined) === (inboxAt === undefined) && !flags['print-secret']) {
        throw usageError('give --forward-to <url> or --inbox <file.db | postgres://...> (one of them)');
      }
      const forwardTo =
        flags['forward-to'] === undefined ? undefined : httpUrl(flags['forward-to'], 'forward-to');
      const intervalMs = wholeNumber(flags.interval, 'interval', 1, 3600)! * 1000;
      const rpm = wholeNumber(flags['requests-per-minute'], 'requests-per-minute', 1, 100_000)!;
      const types = list(flags.events);
      const { apiKey, baseUrl } = credentials();
      const store = ListenFileStore.open(flags.checkpoint, baseUrl);
      if (flags['print-secret']) {
        await store.flush();
        output.record({ secret: store.secret }, store.secret);
        return EXIT.ok;
      }
      const client = new ShopClient({ apiKey, baseUrl, throttle: { requestsPerMinute: rpm } });
      // The start position is saved before anything is delivered: a stop before the first delivery resumes there.
      const since = await startingPoint(client, flags.since, store);
      await store.flush();
      if (inboxAt !== undefined) {
        const inbox = await openInbox(inboxAt);
        const catchUp = new EventCatchUp({
          client,
          checkpoints: store,
          checkpointEvery: 1,
          ...(since ? { since } : {}),
          ...(types?.length === 1 ? { type: types[0] as EventType } : {}),
          onEvent: async (event) => {
            if (types && !types.includes(event.type)) return;
            const added = await inbox.add(event, 'listen');
            output.record(
              {
                event: 'inbox',
                at: new Date().toISOString(),
                eventId: event.id,
                eventType: event.type,
                added,
              },
              `${clockTime()} ${event.type} ${event.id} ${output.paint('green', `[${added}]`)}`,
            );
          },
        });
        explainLimits(output, {
          baseUrl,
          apiKey,
          forwardTo: inboxAt,
          intervalMs,
          rpm,
          file: flags.checkpoint,
          types,
        });
        try {
          return await follow(catchUp, null, intervalMs, output);
        } finally {
          await inbox.store.close();
        }
      }
      const forwarder = new Forwarder({
        url: forwardTo!,
        secret: store.secret,
        attemptsOf: (id) => store.attemptsOf(id),
        onAttempt: (result) => {
          printDelivery(output, result);
          void store.noteAttempt(result.eventId, result.attempt);
        },
      });
      const catchUp = new EventCatchUp({
        client,
        checkpoints: store,
        checkpointEvery: 1,
        ...(since ? { since } : {}),
        ...(types?.length === 1 ? { type: types[0] as EventType } : {}),
        onEvent: async (event) => {
          if (types && !types.includes(event.type)) return;
          await forwarder.deliver(event);
        },
      });
      // Against a sandbox process, its live log says when an event is recorded: no waiting for a poll.
      const doorbell = await sandboxDoorbell(baseUrl, apiKey);
      explainLimits(output, {
        baseUrl,
        apiKey,
        forwardTo: forwardTo!,
        intervalMs,
        rpm,
        file: flags.checkpoint,
        types,
      });
      if (doorbell)
        output.note(
          'Against a sandbox: its live log rings when an event is recorded, so events arrive at once.',
        );
      return follow(catchUp, forwarder, intervalMs, output, doorbell);
    }),
});

/** The inbox `--inbox` names: a postgres:// URL, or a SQLite file. Its adapter (and driver) load only here. */
async function openInbox(at: string): Promise<Inbox> {
  const { Inbox } = await import('../../sync/inbox/inbox.js');
  if (/^postgres(ql)?:\/\//.test(at)) {
    const { PostgresInboxStore } = await import('../../sync/inbox/postgres.js');
    return new Inbox(await PostgresInboxStore.connect(at));
  }
  const { SqliteInboxStore } = await import('../../sync/inbox/sqlite.js');
  return new Inbox(await SqliteInboxStore.open(at));
}

function credentials(): { apiKey: string; baseUrl: string } {
  const apiKey = readEnv('SHOP_API_KEY');
  const baseUrl = readEnv('SHOP_API_BASE_URL');
  if (!apiKey)
    throw usageError('set SHOP_API_KEY to a key of the shop (or the one `shop-mgmt sandbox` printed)');
  if (!baseUrl)
    throw usageError('set SHOP_API_BASE_URL to the API origin (or the URL `shop-mgmt sandbox` printed)');
  return { apiKey, baseUrl: httpUrl(baseUrl, 'SHOP_API_BASE_URL').replace(/\/+$/, '') };
}

/** Says plainly what following a feed cannot give, once, on stderr. */
function explainLimits(
  output: Output,
  info: {
    baseUrl: string;
    apiKey: string;
    forwardTo: string;
    intervalMs: number;
    rpm: number;
    file: string;
    types: string[] | undefined;
  },
): void {
  output.record(
    {
      event: 'listening',
      baseUrl: info.baseUrl,
      key: maskKey(info.apiKey),
      forwardTo: info.forwardTo,
      intervalMs: info.intervalMs,
    },
    `${output.paint('green', 'Listening')} to ${info.baseUrl}/v1/events with ${maskKey(info.apiKey)}, forwarding to ${output.paint('bold', info.forwardTo)}`,
  );
  output.note(
    [
      `Signed with the local secret in ${info.file} (print it with --print-secret). Checkpoint kept there too: Ctrl-C and run again to resume.`,
      `What a feed cannot give: events arrive up to ${info.intervalMs / 1000}s late (the poll interval);`,
      '  the feed holds only types some webhook endpoint of the shop subscribes (the service records no others);',
      "  payloads follow this key's redaction rules (customers as {object, id} without customers:read, no date_of_birth without customer_dob:read), not an endpoint's;",
      `  polls are throttled to ${info.rpm} requests a minute to stay under the shop's rate limit.`,
    ].join('\n'),
  );
}

/** Polls until Ctrl-C: a run, then the interval. A key the shop refuses ends it; other failures wait for the next poll. */
async function follow(
  catchUp: EventCatchUp,
  forwarder: Forwarder | null,
  intervalMs: number,
  output: Output,
  doorbell: { onRing: (ring: () => void) => void; close: () => void } | null = null,
): Promise<number> {
  let stopped = false;
  let wake: (() => void) | null = null;
  let rang = false;
  doorbell?.onRing(() => {
    rang = true;
    wake?.();
  });
  const stop = () => {
    stopped = true;
    forwarder?.stop();
    wake?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  while (!stopped) {
    output.spin('waiting for events');
    try {
      await catchUp.run();
    } catch (error) {
      output.stopSpinner();
      // A key the shop refuses will not get better by polling: run() reports it and exits.
      if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) throw error;
      if (error instanceof ConnectionError)
        output.error(`cannot reach the shop (${error.message}); trying again`);
      else if (error instanceof ForwardError) output.error(error.message);
      else if (!stopped) output.error(`${(error as Error).name}: ${(error as Error).message}`);
    }
    if (stopped) break;
    if (!rang) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, intervalMs);
      });
    }
    rang = false;
  }
  doorbell?.close();
  output.stopSpinner();
  output.note('stopped; the checkpoint is saved');
  return EXIT.ok;
}

/** One line per delivery attempt: time, type, id, status, ms. */
export function printDelivery(output: Output, result: ForwardResult): void {
  const ok = result.error === null;
  const status = result.status ?? result.error;
  output.record(
    { event: 'delivery', at: new Date().toISOString(), ...result },
    `${clockTime()} ${result.eventType} ${result.eventId} ${output.paint(ok ? 'green' : 'red', `[${status}]`)} ${result.ms}ms (${result.deliveryId}, attempt ${result.attempt})`,
  );
}
