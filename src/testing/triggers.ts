import { ShopClient } from '../client.js';
import { EVENT_TYPES } from '../generated/event-types.js';
import type { RangeReservationsCreateParams } from '../generated/params.js';
import type { SandboxClock } from './clock.js';
import { SandboxUsageError } from './errors.js';
import type { SandboxWebhooks } from './events/webhooks.js';
import type { SandboxRegister } from './register/index.js';
import type { SandboxOwner } from './register/owner.js';
import type { SandboxWorld } from './world.js';

/**
 * What a trigger uses of the sandbox. A `Sandbox` is one; it is named here, not imported, because
 * sandbox.ts loads this module (lazily, on the first `sandbox.trigger`) and no import circle is allowed.
 */
export interface TriggerSandbox {
  readonly baseUrl: string;
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  readonly clock: SandboxClock;
  readonly world: SandboxWorld;
  readonly register: SandboxRegister;
  readonly owner: SandboxOwner;
  readonly webhooks: SandboxWebhooks;
}

/**
 * What a trigger works with: the sandbox acting as a partner (`client`, the SDK's own client with a key of
 * the sandbox, answered in-process) and as staff (`sandbox.register`, `sandbox.owner`).
 */
export interface TriggerContext {
  readonly sandbox: TriggerSandbox;
  readonly client: ShopClient;
  /** Events a recipe made that the feed does not hold (the ping of Send test). */
  readonly unrecorded: { id: string; type: string }[];
}

/** One way to make an event in the sandbox: SDK calls, or the register; resolves to what it did. */
type Recipe = (shop: TriggerContext) => Promise<string>;

/** What `sandbox.trigger(type)` did and which events it made. */
export interface TriggerResult {
  readonly type: string;
  /** What it did, e.g. `booked reservation 5012 (API)`. */
  readonly did: string;
  /** The events it made, in order (a ping of Send test included). */
  readonly events: readonly { readonly id: string; readonly type: string }[];
}

/**
 * Makes one event of `type` (`sandbox.trigger` calls it). Throws SandboxUsageError for a type the sandbox
 * cannot make, and the SDK's error when a call is refused, so it never reports an event it did not make.
 */
export async function runTrigger(sandbox: TriggerSandbox, key: string, type: string): Promise<TriggerResult> {
  const recipe = RECIPES[type];
  if (!recipe) {
    const known = triggerList().find((entry) => entry.type === type);
    throw new SandboxUsageError(
      known
        ? `the sandbox cannot make ${type}: ${known.reason}`
        : `${JSON.stringify(type)} is not a known event type`,
    );
  }
  const client = new ShopClient({
    apiKey: key,
    baseUrl: sandbox.baseUrl,
    fetch: sandbox.fetch,
    maxRetries: 0,
  });
  const context: TriggerContext = { sandbox, client, unrecorded: [] };
  const log = sandbox.world.events;
  const before = log.all().at(-1)?.seq ?? 0;
  const did = await recipe(context);
  const events = log
    .all()
    .filter((event) => event.seq > before)
    .map((event) => ({ id: event.envelope.id, type: event.envelope.type }))
    .concat(context.unrecorded);
  return { type, did, events };
}

/** Books a free rifle lane tomorrow for an hour; returns the reservation id. */
async function bookLane(
  shop: TriggerContext,
  who: Pick<RangeReservationsCreateParams, 'customer_id' | 'customer'> = { customer_id: 1 },
): Promise<number> {
  const start = new Date(shop.sandbox.clock.nowMs() + 86_400_000);
  start.setUTCHours(17, 0, 0, 0);
  for (let hour = 0; hour < 48; hour++) {
    const startsAt = new Date(start.getTime() + hour * 3_600_000).toISOString();
    const endsAt = new Date(start.getTime() + (hour + 1) * 3_600_000).toISOString();
    const free = await shop.client.range.availability.list({
      starts_at: startsAt,
      ends_at: endsAt,
      lane_type: 'rifle',
    });
    const lane = free[0]?.resource?.id;
    if (lane === undefined) continue;
    const booking = await shop.client.range.reservations.create({
      starts_at: startsAt,
      ends_at: endsAt,
      resource_ids: [lane],
      party_size: 1,
      ...who,
    });
    return booking.id;
  }
  throw new Error('no rifle lane is free in the next two days');
}

/** Books a free rifle lane tomorrow for a new customer (new email): the booking creates the customer. */
async function bookForNewCustomer(shop: TriggerContext): Promise<number> {
  const email = `trigger.${Date.now().toString(36)}.${++uniques}@example.com`;
  return bookLane(shop, { customer: { first_name: 'Trigger', last_name: 'Guest', email } });
}

let uniques = 0;

/** A rental gun with `status`, by the API. */
async function rentalIn(shop: TriggerContext, status: string): Promise<number> {
  const rentals = await shop.client.range.rentals.list({ limit: 200 });
  const found = rentals.data.find((rental) => rental.status === status);
  if (!found) throw new Error(`no rental gun is ${status}`);
  return found.id;
}

const SALE = { customerId: 1, locationId: 1, lines: [{ sku: 'AMMO-FED-9MM-50', qty: 1 }] };

/** Every event type the sandbox makes on demand, and how. */
export const RECIPES: Readonly<Record<string, Recipe>> = {
  'range.reservation.booked': async (shop) => `booked reservation ${await bookLane(shop)} (API)`,
  'range.reservation.cancelled': async (shop) => {
    const id = await bookLane(shop);
    await shop.client.range.reservations.cancel(id, {});
    return `booked and cancelled reservation ${id} (API)`;
  },
  'range.reservation.checked_in': async (shop) => {
    const id = await bookLane(shop);
    await shop.client.range.reservations.checkIn(id);
    return `booked and checked in reservation ${id} (API)`;
  },
  'range.reservation.no_show': async (shop) => {
    const id = await bookLane(shop);
    await shop.client.range.reservations.markNoShow(id);
    return `booked reservation ${id} and marked it a no-show (API)`;
  },
  'range.reservation.completed': async (shop) => {
    const id = await bookLane(shop);
    await shop.client.range.reservations.checkIn(id);
    shop.sandbox.register.closeVisit(id);
    return `booked, checked in (API) and closed the visit of reservation ${id} (register)`;
  },
  'range.rental.checked_out': async (shop) => {
    const id = await rentalIn(shop, 'available');
    shop.sandbox.register.rentOut(id, { customerId: 1 });
    return `rented out gun ${id} (register)`;
  },
  'range.rental.checked_in': async (shop) => {
    const id = await rentalIn(shop, 'available');
    shop.sandbox.register.rentOut(id, { customerId: 1 });
    shop.sandbox.register.returnRental(id, { condition: 'Good', roundsFired: 50 });
    return `rented out and took back gun ${id} (register)`;
  },
  'range.rental.out_of_service': async (shop) => {
    const id = await rentalIn(shop, 'available');
    shop.sandbox.register.takeOutOfService(id, 'Scheduled service');
    return `took gun ${id} out of service (register)`;
  },
  'range.rental.returned_to_service': async (shop) => {
    const id = await rentalIn(shop, 'available');
    shop.sandbox.register.takeOutOfService(id, 'Scheduled service');
    shop.sandbox.register.returnToService(id);
    return `took gun ${id} out of service and back (register)`;
  },
  'sale.completed': async (shop) => `rang up sale ${shop.sandbox.register.sell(SALE).id} (register)`,
  'inventory.changed': async (shop) => {
    await shop.client.inventory.adjust({
      sku: 'AMMO-FED-9MM-50',
      location_id: 1,
      qty_delta: 1,
      reason: 'count',
      note: 'shop-mgmt trigger',
    });
    return 'adjusted AMMO-FED-9MM-50 at location 1 by +1 (API)';
  },
  'order.created': async (shop) => {
    const order = await shop.client.orders.create({
      customer_id: 2,
      lines: [{ sku: 'AMMO-FED-9MM-50', qty: 1 }],
    });
    return `created order ${order.id} (API)`;
  },
  'sale.voided': async (shop) => {
    const sale = shop.sandbox.register.sell(SALE);
    await shop.client.orders.void(sale.id);
    return `rang up sale ${sale.id} (register) and voided it (API)`;
  },
  'coupon.created': async (shop) => `created coupon ${(await newCoupon(shop)).id} (API)`,
  'coupon.updated': async (shop) => {
    const { id } = await newCoupon(shop);
    await shop.client.coupons.update(id, { name: 'Renamed by shop-mgmt trigger' });
    return `created and renamed coupon ${id} (API)`;
  },
  'coupon.deleted': async (shop) => {
    const { id } = await newCoupon(shop);
    await shop.client.coupons.delete(id);
    return `created and deleted coupon ${id} (API)`;
  },
  'location.updated': async (shop) => {
    await shop.client.locations.update(1, { phone: `+1208555${String(Date.now()).slice(-4)}` });
    return 'changed the phone number of location 1 (API)';
  },
  'product.updated': async (shop) => {
    const [product] = (await shop.client.products.list({ limit: 1 })).data;
    if (!product) throw new Error('the shop has no product');
    await shop.client.products.update(idOf(product, 'product'), {
      price_cents: (product.price_cents ?? 0) + 1,
    });
    return `raised the price of product ${product.id} by a cent (API)`;
  },
  'store_credit.changed': async (shop) => {
    await shop.client.customers.storeCredit.issue(3, {
      amount_cents: 500,
      note: 'shop-mgmt trigger',
    });
    return 'issued $5.00 of store credit to customer 3 (API)';
  },
  'purchase_order.created': async (shop) =>
    `created purchase order ${(await newPurchaseOrder(shop)).id} (API)`,
  'purchase_order.submitted': async (shop) => {
    const { id } = await newPurchaseOrder(shop);
    await shop.client.purchaseOrders.submit(id);
    return `created and submitted purchase order ${id} (API)`;
  },
  'purchase_order.cancelled': async (shop) => {
    const { id } = await newPurchaseOrder(shop);
    await shop.client.purchaseOrders.cancel(id);
    return `created and cancelled purchase order ${id} (API)`;
  },
  'receiving.posted': async (shop) => {
    const { id } = await newPurchaseOrder(shop);
    await shop.client.purchaseOrders.submit(id);
    await shop.client.purchaseOrders.receive(id, { all_outstanding: true });
    return `created, submitted and received purchase order ${id} (API)`;
  },
  'customer.created': async (shop) => {
    const id = await bookForNewCustomer(shop);
    return `booked reservation ${id} for a new customer (API)`;
  },
  'gift_certificate.issued': async (shop) => {
    const certificate = await shop.client.giftCertificates.issue({
      amount_cents: 2500,
      note: 'shop-mgmt trigger',
    });
    return `issued gift certificate ${certificate.id} for $25.00 (API)`;
  },
  'gift_certificate.updated': async (shop) => {
    const certificate = await shop.client.giftCertificates.issue({
      amount_cents: 2500,
      note: 'shop-mgmt trigger',
    });
    await shop.client.giftCertificates.redeem(idOf(certificate, 'gift certificate'), { amount_cents: 500 });
    return `issued gift certificate ${certificate.id} and redeemed $5.00 of it (API)`;
  },
  'account.payment_received': async (shop) => `${await payAccount(shop)} (API)`,
  'invoice.updated': async (shop) => `${await payAccount(shop)}, applied to its oldest open invoice (API)`,
  'membership.created': async (shop) => {
    const { customer, membership } = await signUp(shop);
    return `signed new customer ${customer} up for membership ${membership} (register, API)`;
  },
  'membership.updated': async (shop) => {
    const { customer, membership } = await signUp(shop);
    shop.sandbox.register.payMembership(membership);
    return `signed new customer ${customer} up (register, API) and took the first dues at the counter (register)`;
  },
  'product.created': async (shop) => `added product ${(await newProduct(shop)).id} (owner)`,
  'product.deleted': async (shop) => {
    const { id } = await newProduct(shop);
    shop.sandbox.owner.deleteProduct(id);
    return `added and deleted product ${id} (owner)`;
  },
  'customer.updated': async (shop) => {
    shop.sandbox.register.updateCustomer(7, { phone: `+1208555${String(Date.now()).slice(-4)}` });
    return 'changed the phone number of customer 7 (register)';
  },
  'customer.deleted': async (shop) => {
    const { id } = shop.sandbox.register.addCustomer({
      firstName: 'Trigger',
      lastName: 'Guest',
      email: `trigger.${Date.now().toString(36)}.${++uniques}@example.com`,
    });
    shop.sandbox.register.deleteCustomer(id);
    return `added and deleted customer ${id} (register)`;
  },
  'sale.refunded': async (shop) => `${sellAndReturn(shop, 'refund')} (register)`,
  'return.created': async (shop) => `${sellAndReturn(shop, 'store_credit')} (register)`,
  'invoice.created': async (shop) => {
    const invoice = shop.sandbox.owner.issueInvoice(2, { amountCents: 2500 });
    return `issued invoice ${invoice.number} of $25.00 to the house account of customer 2 (owner)`;
  },
  'membership.payment_failed': async (shop) => {
    const id = decliningMember(shop);
    shop.sandbox.register.chargeSavedCard(id);
    return `charged the saved card of membership ${id}, which declines (billing)`;
  },
  'location.created': async (shop) => {
    const location = shop.sandbox.owner.addLocation({ name: `Trigger Store ${++uniques}` });
    return `added location ${location.id} (owner)`;
  },
  ping: async (shop) => {
    const endpoints = shop.sandbox.webhooks.endpoints().filter((endpoint) => endpoint.enabled);
    if (endpoints.length === 0)
      throw new Error('the sandbox has no webhook endpoint to test (start it with --forward-to)');
    for (const endpoint of endpoints) {
      const deliveryId = shop.sandbox.webhooks.sendTest(endpoint.id);
      const pending = shop.sandbox.webhooks.pending().find((delivery) => delivery.deliveryId === deliveryId);
      if (pending) shop.unrecorded.push({ id: pending.eventId, type: 'ping' });
    }
    return `pressed Send test on ${endpoints.map((endpoint) => endpoint.id).join(', ')} (owner)`;
  },
};

/** A customer added at the counter (one per run: a customer joins a plan once), signed up for plan 1. */
async function signUp(shop: TriggerContext): Promise<{ customer: number; membership: number }> {
  const customer = shop.sandbox.register.addCustomer({
    firstName: 'Trigger',
    lastName: 'Member',
    email: `member.${Date.now().toString(36)}.${++uniques}@example.com`,
  }).id;
  const membership = await shop.client.memberships.create({
    customer_id: customer,
    plan_id: 1,
    billing_method: 'counter',
  });
  return { customer, membership: membership.id };
}

async function newProduct(shop: TriggerContext): Promise<{ id: number }> {
  return shop.sandbox.owner.addProduct({
    sku: `TRIGGER-${Date.now().toString(36).toUpperCase()}-${++uniques}`,
    name: 'Trigger test product',
    priceCents: 1999,
  });
}

/** Rings up a sale and takes it back at the counter. */
function sellAndReturn(shop: TriggerContext, settlement: 'refund' | 'store_credit'): string {
  const sale = shop.sandbox.register.sell(SALE);
  const taken = shop.sandbox.register.returnSale(sale.id, { settlement });
  return `rang up sale ${sale.id} and took it back as return ${taken.number} (${settlement === 'refund' ? 'refunded' : 'in store credit'})`;
}

/** A card-billed membership whose saved card declines and that owes something (membership 3 of the seed). */
function decliningMember(shop: TriggerContext): number {
  const { memberships } = shop.sandbox.world.state;
  const found = memberships.memberships.all().find((membership) => {
    const owes =
      memberships.charges.find(
        (charge) =>
          memberships.chargeOwner.get(charge.id) === membership.id &&
          (charge.status === 'due' || charge.status === 'failed'),
      ) !== undefined;
    return owes && memberships.extras.get(membership.id)?.card?.declines === true;
  });
  if (!found) throw new Error('no membership with a declining saved card owes anything');
  return found.id;
}

/** A $1.00 payment on the house account of the first customer who owes something. */
async function payAccount(shop: TriggerContext): Promise<string> {
  for (let customer = 1; customer <= 14; customer++) {
    const account = await shop.client.customers.account.retrieve(customer).catch(() => null);
    // The reference does not show the account's shape: its balance is a field the SDK keeps, untyped.
    const balance = (account as { balance_cents?: number } | null)?.balance_cents ?? 0;
    if (balance < 100) continue;
    await shop.client.customers.account.payments.create(customer, {
      amount_cents: 100,
      tender: 'cash',
    });
    return `took a $1.00 payment on the house account of customer ${customer}`;
  }
  throw new Error('no house account owes anything');
}

let coupons = 0;
async function newCoupon(shop: TriggerContext): Promise<{ id: number }> {
  coupons += 1;
  const code = `TRIGGER${Date.now().toString(36).toUpperCase()}${coupons}`;
  const coupon = await shop.client.coupons.create({ code, name: 'shop-mgmt trigger', percent_off: 5 });
  return { id: idOf(coupon, 'coupon') };
}

async function newPurchaseOrder(shop: TriggerContext): Promise<{ id: number }> {
  const order = await shop.client.purchaseOrders.create({
    vendor_id: 1,
    location_id: 1,
    lines: [{ sku: 'TGT-BC-SNC12', qty: 5 }],
  });
  return { id: idOf(order, 'purchase order') };
}

/** The id of a record whose shape the reference does not show (typed optional), which the sandbox sends. */
function idOf(record: { id?: number }, what: string): number {
  if (record.id === undefined) throw new Error(`the sandbox answered a ${what} without an id`);
  return record.id;
}

/** What `trigger --list` prints: every event type with whether and why not. */
export function triggerList(): { type: string; supported: boolean; reason?: string }[] {
  return EVENT_TYPES.map((type) =>
    type in RECIPES
      ? { type, supported: true }
      : { type, supported: false, reason: 'the sandbox has no action that makes it' },
  );
}
