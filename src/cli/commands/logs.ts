import { defineCommand } from 'citty';
import type { Activity } from '../../testing/activity.js';
import { EXIT, usageError } from '../exit-codes.js';
import { followLiveLog, type LiveEntry } from '../live-log.js';
import { clockTime, type Output } from '../output.js';
import { list } from '../parse.js';
import { run, untilSignal } from '../run.js';
import { sandboxTarget } from './trigger.js';

/** Which entries `logs tail` prints. */
export interface LogFilter {
  /** `4xx`, `404`, `2xx,5xx`: the request status, or a delivery's HTTP status. */
  statuses?: ((status: number | null) => boolean)[];
  /** Request paths: a prefix, or a pattern with `*`. */
  paths?: RegExp[];
  operations?: string[];
  /** Delivery and event types; `range.*` matches a family. */
  events?: RegExp[];
}

const tail = defineCommand({
  meta: {
    name: 'tail',
    description:
      'Follow the live log of a running `shop-mgmt sandbox` (SHOP_API_BASE_URL, SHOP_API_KEY): every API request and webhook delivery attempt as it happens. Reconnects with Last-Event-ID when the sandbox restarts, so nothing is missed.',
  },
  args: {
    status: { type: 'string', description: 'Only these statuses: 4xx, 404, 2xx,5xx' },
    path: { type: 'string', description: 'Only requests under these paths: /v1/range, /v1/*/reservations' },
    operation: { type: 'string', description: 'Only these operations: range.reservations.create' },
    event: {
      type: 'string',
      description: 'Only deliveries and events of these types: sale.completed, range.*',
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const filter = readFilter(flags);
      const { apiKey, baseUrl } = sandboxTarget();
      const stop = new AbortController();
      void untilSignal().then(() => stop.abort());
      let connected = false;
      await followLiveLog({
        baseUrl,
        apiKey,
        signal: stop.signal,
        onConnection: (state) => {
          if (state === 'connected') {
            output.note(
              connected
                ? 'reconnected: entries made meanwhile follow'
                : `following the live log of ${baseUrl} (Ctrl-C to stop)`,
            );
            connected = true;
          } else {
            output.note('the sandbox went away; reconnecting...');
          }
        },
        onGap: (missed) =>
          output.note(`${missed} entries were lost while disconnected (the log keeps 1,000)`),
        onEntry: (entry) => {
          if (matches(entry.activity, filter)) printEntry(output, entry);
        },
      });
      return EXIT.ok;
    }),
});

/** `shop-mgmt logs`: the sandbox's live log. */
export const logsCommand = defineCommand({
  meta: { name: 'logs', description: 'The live log of a `shop-mgmt sandbox` process.' },
  subCommands: { tail },
});

/** The filter of the flags, or a usage error naming the bad one. */
export function readFilter(flags: {
  status?: string;
  path?: string;
  operation?: string;
  event?: string;
}): LogFilter {
  const filter: LogFilter = {};
  const statuses = list(flags.status);
  if (statuses) filter.statuses = statuses.map(statusTest);
  const paths = list(flags.path);
  if (paths) {
    for (const path of paths) {
      if (!path.startsWith('/'))
        throw usageError(`--path takes paths such as /v1/range, got ${JSON.stringify(path)}`);
    }
    filter.paths = paths.map((path) => pattern(path, path.includes('*') ? '$' : '(?:[/?]|$)'));
  }
  const operations = list(flags.operation);
  if (operations) filter.operations = operations;
  const events = list(flags.event);
  if (events) filter.events = events.map((type) => pattern(type, '$'));
  return filter;
}

function statusTest(text: string): (status: number | null) => boolean {
  const exact = /^[1-5]\d\d$/.exec(text);
  if (exact) return (status) => status === Number(text);
  const family = /^([1-5])xx$/i.exec(text);
  if (family) return (status) => status !== null && Math.floor(status / 100) === Number(family[1]);
  throw usageError(`--status takes 4xx, 404 or a list such as 2xx,5xx; got ${JSON.stringify(text)}`);
}

/** A literal with `*` matching anything within it, anchored at the start, ending with `end`. */
function pattern(text: string, end: string): RegExp {
  const body = text
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${end}`);
}

/**
 * Whether an entry passes: --path and --operation speak of requests, --event of deliveries and events,
 * so an entry passes when some flag about its kind matches (and all of them when none is given);
 * --status applies to requests and deliveries.
 */
export function matches(activity: Activity, filter: LogFilter): boolean {
  const requestFlags = filter.paths !== undefined || filter.operations !== undefined;
  const eventFlags = filter.events !== undefined;
  if (activity.kind === 'request') {
    if (eventFlags && !requestFlags) return false;
    if (filter.paths && !filter.paths.some((path) => path.test(activity.path))) return false;
    if (filter.operations && !filter.operations.includes(activity.operationId ?? '')) return false;
    return !filter.statuses || filter.statuses.some((test) => test(activity.status));
  }
  if (requestFlags && !eventFlags) return false;
  if (filter.events && !filter.events.some((type) => type.test(activity.eventType))) return false;
  if (activity.kind === 'event') return !filter.statuses;
  return !filter.statuses || filter.statuses.some((test) => test(activity.httpStatus));
}

function printEntry(output: Output, entry: LiveEntry): void {
  const { activity } = entry;
  const time = clockTime(new Date(activity.at));
  if (activity.kind === 'request') {
    const colour =
      activity.status >= 500 || activity.status === 0 ? 'red' : activity.status >= 400 ? 'yellow' : 'green';
    const extras = [
      activity.operationId ?? 'no operation',
      activity.keyPrefix ?? 'no key',
      activity.idempotencyKey ? `idempotency ${activity.idempotencyKey}` : null,
      activity.replayed ? output.paint('cyan', 'replayed') : null,
    ].filter((part) => part !== null);
    output.record(
      { id: entry.id, ...activity },
      `${time} ${activity.method.padEnd(6)} ${activity.path} ${output.paint(colour, String(activity.status))} ${activity.durationMs}ms ${output.paint('dim', extras.join(' '))}`,
    );
  } else if (activity.kind === 'delivery') {
    const ok = activity.status === 'succeeded';
    const result = activity.httpStatus ?? activity.error ?? 'no answer';
    const next = activity.nextRetryAt ? `, next try ${activity.nextRetryAt}` : '';
    output.record(
      { id: entry.id, ...activity },
      `${time} ${output.paint('bold', 'webhook')} ${activity.eventType} ${activity.eventId} -> ${activity.endpointId} ${output.paint(ok ? 'green' : 'red', String(result))} ${output.paint('dim', `attempt ${activity.attempt} (${activity.deliveryId})${next}`)}`,
    );
  } else {
    output.record(
      { id: entry.id, ...activity },
      `${time} ${output.paint('bold', 'event')}   ${activity.eventType} ${activity.eventId}`,
    );
  }
}
