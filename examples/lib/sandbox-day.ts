// A partner's day against the built-in sandbox: every step a real integration takes, on a simulated shop
// served over HTTP on 127.0.0.1, with a webhook receiver next to it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ShopClient } from '../../src/index.js';
import { EventCatchUp } from '../../src/sync/index.js';
import { createSandbox, type Sandbox, type SandboxServer } from '../../src/testing/index.js';
import {
  createWebhookHandler,
  MemoryDedupeStore,
  type ShopEvent,
  type WebhookHandler,
} from '../../src/webhooks/index.js';
import { detail, heading, money, window } from './print.js';

const EVENT_TYPES = [
  'range.reservation.booked',
  'range.reservation.checked_in',
  'range.reservation.completed',
  'sale.completed',
];

/** Servers the day started; `close` stops them all, so the process exits on its own. */
interface Running {
  sandbox: Sandbox;
  api: SandboxServer;
  receiver: Server;
  receiverUrl: string;
}

async function startReceiver(handle: () => WebhookHandler): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => void handle().node(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/webhooks` };
}

function stopReceiver(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

const HOUR = 3_600_000;
/** Where the sandbox clock starts: a weekday afternoon, so the range is open and lanes are free tomorrow. */
const SANDBOX_START = '2026-10-01T15:00:00Z';

/** An hour-long window starting `hoursAhead` whole hours from now. */
function windowAhead(now: Date, hoursAhead: number): { starts_at: string; ends_at: string } {
  const start = Math.ceil(now.getTime() / HOUR) * HOUR + hoursAhead * HOUR;
  return { starts_at: new Date(start).toISOString(), ends_at: new Date(start + HOUR).toISOString() };
}

/** Runs the whole walk-through; every server it starts is closed before it returns or throws. */
export async function sandboxDay(): Promise<void> {
  console.log('shop-mgmt quickstart: SHOP_API_KEY and SHOP_API_BASE_URL are not set, so this runs against');
  console.log('the built-in sandbox (shop-mgmt/testing), a simulated shop served on 127.0.0.1.');

  // A fixed start makes every run print the same day. The sandbox signs deliveries on its own clock, so the
  // handler checks signature timestamps against that clock (its `now` option), not the wall's.
  const sandbox = createSandbox({ now: SANDBOX_START });
  const handled: ShopEvent[] = [];
  const dedupe = new MemoryDedupeStore();
  const onEvent = (event: ShopEvent) => {
    handled.push(event);
  };
  let handler: WebhookHandler | undefined;
  const receiver = await startReceiver(() => handler!);
  let api: SandboxServer | undefined;
  try {
    api = await sandbox.listen();
    const endpoint = sandbox.webhooks.addEndpoint({ url: receiver.url, types: EVENT_TYPES });
    handler = createWebhookHandler({
      secret: endpoint.secret,
      dedupe,
      onEvent,
    });
    await walk({ sandbox, api, receiver: receiver.server, receiverUrl: receiver.url }, handled, dedupe);
  } finally {
    await Promise.all([api?.close(), stopReceiver(receiver.server)]);
  }
  console.log('\nDone: the sandbox and the webhook receiver are closed.');
}

async function walk(running: Running, handled: ShopEvent[], dedupe: MemoryDedupeStore): Promise<void> {
  const { sandbox, api } = running;
  heading('Started the sandbox and a webhook receiver');
  detail(`API:      ${api.url} (the SDK adds /v1)`);
  detail(`Webhooks: ${running.receiverUrl}`);
  detail(`          subscribed to ${EVENT_TYPES.join(', ')}`);

  // The SDK logs each retry at info level; keep those lines to show them under the booking step.
  const retries: string[] = [];
  const shop = new ShopClient({
    apiKey: sandbox.createKey(),
    baseUrl: api.url,
    logLevel: 'info',
    logger: {
      debug() {},
      info: (line) => retries.push(line),
      warn: (line) => retries.push(line),
      error() {},
    },
  });

  heading('Listed the lanes');
  const lanes = await shop.range.resources.list({ type: 'lane' }).toArray();
  const locations = new Set(lanes.map((lane) => lane.location_id));
  detail(
    `${lanes.length} lanes at ${locations.size} locations, e.g. ${lanes
      .slice(0, 3)
      .map((l) => l.name)
      .join(', ')}`,
  );

  heading('Found availability for a party of 2');
  // Tomorrow at this time, or the next hour with a rifle lane free.
  let slot = windowAhead(sandbox.clock.now(), 24);
  let free = await shop.range.availability.list({ ...slot, party_size: 2, lane_type: ['rifle'] });
  for (let hours = 25; free.length === 0 && hours < 48; hours++) {
    slot = windowAhead(sandbox.clock.now(), hours);
    free = await shop.range.availability.list({ ...slot, party_size: 2, lane_type: ['rifle'] });
  }
  const lane = free[0];
  if (!lane) throw new Error('no rifle lane is free in the next two days');
  detail(`${window(slot.starts_at, slot.ends_at)}: ${free.length} rifle lanes free`);
  detail(`choosing ${lane.resource.name} at ${money(lane.price_cents)}`);

  heading('Booked the lane with an Idempotency-Key, through a server error');
  // The shop makes the booking, then the answer is lost as a 500 (sandbox.faults.next): the case the key is for.
  sandbox.faults.next({ status: 500, when: 'after', method: 'POST', path: '/v1/range/reservations' });
  // The key is built from what is booked (the order, the lane, the hour): a key is bound to the body it first
  // came with, so a fixed one would be refused (422 IDEMPOTENCY_MISMATCH) once another lane is booked with it.
  const idempotencyKey = `quickstart-1-lane-${lane.resource.id}-${slot.starts_at}`;
  const booking = await shop.range.reservations
    .create(
      {
        ...slot,
        resource_ids: [lane.resource.id],
        party_size: 2,
        customer: { email: 'dana.reyes@example.com', first_name: 'Dana', last_name: 'Reyes' },
        external_reference: 'quickstart-1',
      },
      { idempotencyKey },
    )
    .withResponse();
  for (const line of retries) detail(`SDK log: ${line.replace(/^shop-mgmt: /, '')}`);
  detail(
    `attempt ${retries.length + 1}, same key ${idempotencyKey}: ${booking.response.status}, ` +
      `Idempotent-Replayed: ${booking.idempotentReplayed} (the stored booking, not a second one)`,
  );
  const reservation = booking.data;
  const sameSlot = (
    await shop.range.reservations.list({ from: slot.starts_at, to: slot.starts_at }).toArray()
  ).filter((r) => r.lines.some((line) => line.resource_id === lane.resource.id));
  detail(
    `reservation #${reservation.id} is ${reservation.status}, paid ${money(reservation.paid_cents)}; ` +
      `reservations on that lane and hour: ${sameSlot.length} (booked once)`,
  );

  heading('Checked the party in');
  const checkedIn = await shop.range.reservations.checkIn(reservation.id);
  detail(`reservation #${checkedIn.id} is ${checkedIn.status}`);

  heading('Closed the visit at the register');
  sandbox.register.closeVisit(reservation.id, { overtimeCents: 1500 });
  const closed = await shop.range.reservations.retrieve(reservation.id);
  detail(`reservation #${closed.id} is ${closed.status}, with ${money(1500)} of overtime rung up as a sale`);

  heading('Received the webhooks');
  // The sandbox sends what is due when flushed; the real service sends within seconds of the change.
  const attempts = await sandbox.webhooks.flush();
  const delivered = attempts.filter((attempt) => attempt.status === 'succeeded');
  for (const event of handled) detail(`${event.type.padEnd(30)} ${event.id}  signature verified`);
  detail(
    `${delivered.length} of ${attempts.length} deliveries acknowledged; webhooks verified: ${handled.length}`,
  );

  heading('Caught up from the event feed');
  const catchUp = new EventCatchUp({
    client: shop,
    dedupe,
    onEvent: (event) => {
      handled.push(event);
    },
  });
  const result = await catchUp.run();
  detail(
    `${result.processed + result.skipped} events in the feed: ${result.skipped} already handled from webhooks, ` +
      `${result.processed} new`,
  );
  detail(`caught up to ${result.checkpoint?.lastEventId ?? 'the start of the feed'}`);
}
