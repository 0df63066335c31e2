import { defineCommand } from 'citty';
import { ShopClient } from '../../client.js';
import { AuthenticationError, PermissionDeniedError } from '../../core/errors/api-errors.js';
import { ConnectionError } from '../../core/errors/transport-errors.js';
import { readEnv } from '../../internal/env.js';
import { withoutCredentials } from '../../internal/redact.js';
import { EventCatchUp } from '../../sync/catch-up.js';
import type { Inbox } from '../../sync/inbox/inbox.js';
import type { EventType } from '../../webhooks/events.js';
import { EXIT, usageError } from '../exit-codes.js';
import {
  ForwardError,
  Forwarder,
  type ForwardResult,
  isDuplicateAnswer,
  isSignatureRefusal,
} from '../forwarder.js';
import { ListenFileStore } from '../listen-file.js';
import { sandboxDoorbell } from '../live-log.js';
import { clockTime, maskKey, type Output } from '../output.js';
import { httpUrl, list, wholeNumber } from '../parse.js';
import { run } from '../run.js';
import { checkpointIsOfThisShop, startingPoint } from '../since.js';

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
    'print-secret': {
      type: 'boolean',
      description: 'Print the signing secret (SHOP_WEBHOOK_SECRET when set, else the local one) and exit',
    },
    'dead-letters': {
      type: 'boolean',
      description: 'List the events set aside after every attempt failed, and exit',
    },
    attempts: {
      type: 'string',
      description: 'Attempts per event (0.5 s, 1 s, 2 s... apart) before it is set aside',
      default: '5',
    },
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
      const attempts = wholeNumber(flags.attempts, 'attempts', 1, 20)!;
      const types = list(flags.events);
      const { apiKey, baseUrl } = credentials();
      const store = ListenFileStore.open(flags.checkpoint, baseUrl);
      const signing = signingSecret(store, flags.checkpoint);
      if (store.otherBaseUrl !== null) {
        output.note(
          `${flags.checkpoint} was written for ${store.otherBaseUrl}, not ${baseUrl}: a checkpoint belongs to one shop, so this run starts fresh (its checkpoint and events set aside are dropped). The signing secret kept there stays the same.`,
        );
      }
      if (flags['print-secret']) {
        await store.flush();
        output.note(secretOrigin(signing, store));
        output.record({ secret: signing.secret, source: signing.source }, signing.secret);
        return EXIT.ok;
      }
      if (flags['dead-letters']) return listDeadLetters(output, store);
      const client = new ShopClient({ apiKey, baseUrl, throttle: { requestsPerMinute: rpm } });
      if (flags.since === undefined && !(await checkpointIsOfThisShop(client, store))) {
        output.note(
          `the checkpoint in ${flags.checkpoint} (after ${store.load()?.lastEventId}) is not in the feed of ${baseUrl}: it was saved for another shop or sandbox (or a sandbox whose clock now runs behind it). Starting fresh: only events from now on.`,
        );
        await store.forget();
      }
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
        const doorbell = await sandboxDoorbell(baseUrl, apiKey);
        try {
          return await follow(catchUp, null, intervalMs, output, doorbell, () =>
            explainLimits(output, {
              baseUrl,
              apiKey,
              forwardTo: withoutCredentials(inboxAt),
              intervalMs,
              rpm,
              file: flags.checkpoint,
              types,
              signing: signing.source,
            }),
          );
        } finally {
          await inbox.store.close();
        }
      }
      let hinted = false;
      const forwarder = new Forwarder({
        url: forwardTo!,
        secret: signing.secret,
        attempts,
        attemptsOf: (id) => store.attemptsOf(id),
        onAttempt: (result) => {
          printDelivery(output, result);
          if (!hinted && isSignatureRefusal(result)) {
            hinted = true;
            output.note(signatureHint(signing));
          }
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
          try {
            await forwarder.deliver(event);
          } catch (error) {
            // The receiver answered every attempt with an error: the event is what fails. Set it aside so
            // the events after it flow; an unreachable receiver stops the run instead (nothing would pass).
            if (!(error instanceof ForwardError) || !error.refused) throw error;
            await setAside(output, store, event, error);
          }
        },
      });
      // Against a sandbox process, its live log says when an event is recorded: no waiting for a poll.
      const doorbell = await sandboxDoorbell(baseUrl, apiKey);
      return follow(catchUp, forwarder, intervalMs, output, doorbell, () => {
        explainLimits(output, {
          baseUrl,
          apiKey,
          forwardTo: forwardTo!,
          intervalMs,
          rpm,
          file: flags.checkpoint,
          types,
          signing: signing.source,
        });
        if (doorbell)
          output.note(
            'Against a sandbox: its live log rings when an event is recorded, so events arrive at once.',
          );
      });
    }),
});

/** Where the signing secret comes from: SHOP_WEBHOOK_SECRET when set (the sandbox's too), else the file. */
interface SigningSecret {
  readonly secret: string;
  readonly source: 'SHOP_WEBHOOK_SECRET' | 'checkpoint file';
  readonly file: string;
}

function signingSecret(store: ListenFileStore, file: string): SigningSecret {
  const fromEnv = readEnv('SHOP_WEBHOOK_SECRET');
  if (fromEnv) {
    if (!fromEnv.startsWith('whsec_')) {
      throw usageError('SHOP_WEBHOOK_SECRET must be a whsec_ secret (as `sandbox` prints it), or unset');
    }
    return { secret: fromEnv, source: 'SHOP_WEBHOOK_SECRET', file };
  }
  return { secret: store.secret, source: 'checkpoint file', file };
}

/** Which secret signs, and where it came from (a file written by this command, or one it found). */
function secretOrigin(signing: SigningSecret, store: ListenFileStore): string {
  if (signing.source === 'SHOP_WEBHOOK_SECRET') return 'secret: SHOP_WEBHOOK_SECRET (set in this shell)';
  return store.existed
    ? `secret: the local one kept in ${signing.file} (SHOP_WEBHOOK_SECRET is not set)`
    : `secret: a new local one, saved in ${signing.file} (SHOP_WEBHOOK_SECRET is not set)`;
}

/** What to do when the receiver refuses the signature: which secret `listen` signs with, and how to match. */
function signatureHint(signing: SigningSecret): string {
  const which =
    signing.source === 'SHOP_WEBHOOK_SECRET'
      ? 'listen signs with SHOP_WEBHOOK_SECRET (set in this shell)'
      : `listen signs with the local secret kept in ${signing.file} (SHOP_WEBHOOK_SECRET is not set)`;
  return [
    `hint: the receiver answered 400 signature_mismatch: it verifies with another secret. ${which}.`,
    '  Give your receiver that secret: `npx shop-mgmt listen --forward-to URL --print-secret` prints it.',
    '  With `shop-mgmt sandbox --forward-to` at the same receiver, export the SHOP_WEBHOOK_SECRET it printed',
    '  in both shells (and in your receiver): then both sign with one secret.',
  ].join('\n');
}

/** Sets a refused event aside, says so, and lets the run go on. */
async function setAside(
  output: Output,
  store: ListenFileStore,
  event: { id: string; type: string },
  error: ForwardError,
): Promise<void> {
  const last = error.last!;
  await store.deadLetter({
    eventId: event.id,
    eventType: event.type,
    at: new Date().toISOString(),
    attempts: last.attempt,
    status: last.status,
    answer: last.answer,
  });
  output.record(
    {
      event: 'dead_letter',
      eventId: event.id,
      eventType: event.type,
      status: last.status,
      answer: last.answer,
    },
    `${clockTime()} ${event.type} ${event.id} ${output.paint('yellow', 'set aside')}: the receiver refused every attempt (${last.status}${last.answer ? ` ${last.answer}` : ''}); later events go on. \`npx shop-mgmt replay ${event.id} --forward-to ...\` sends it again, \`listen --dead-letters\` lists them`,
  );
}

/** `--dead-letters`: the events set aside, one a line. */
function listDeadLetters(output: Output, store: ListenFileStore): number {
  if (store.deadLetters.length === 0 && !output.mode.json) output.note('no event has been set aside');
  for (const entry of store.deadLetters) {
    output.record(
      { event: 'dead_letter', ...entry },
      `${entry.at} ${entry.eventType} ${entry.eventId} [${entry.status}] after ${entry.attempts} attempt(s)${entry.answer ? `: ${entry.answer}` : ''}`,
    );
  }
  return EXIT.ok;
}

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
    signing: SigningSecret['source'];
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
      info.signing === 'SHOP_WEBHOOK_SECRET'
        ? `Signed with SHOP_WEBHOOK_SECRET (print it with --print-secret). Checkpoint kept in ${info.file}: Ctrl-C and run again to resume.`
        : `Signed with the local secret in ${info.file} (print it with --print-secret; SHOP_WEBHOOK_SECRET set replaces it). Checkpoint kept there too: Ctrl-C and run again to resume.`,
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
  announce: () => void = () => undefined,
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
  // The "Listening" line only once Ctrl-C is handled: a signal right after it must stop cleanly, not kill.
  announce();
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
      else if (error instanceof ForwardError)
        output.error(`${error.message}; it is sent again at the next poll`);
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

/** One line per delivery attempt: time, type, id, status and what the receiver said, ms. */
export function printDelivery(output: Output, result: ForwardResult): void {
  const ok = result.error === null;
  const status = result.status ?? result.error;
  const duplicate = isDuplicateAnswer(result);
  const said = duplicate
    ? ' duplicate: the receiver had this event already and did not handle it again'
    : !ok && result.answer
      ? ` ${result.answer}`
      : '';
  output.record(
    { event: 'delivery', at: new Date().toISOString(), ...result, duplicate },
    `${clockTime()} ${result.eventType} ${result.eventId} ${output.paint(ok ? (duplicate ? 'yellow' : 'green') : 'red', `[${status}]`)}${said} ${result.ms}ms (${result.deliveryId}, attempt ${result.attempt})`,
  );
}
