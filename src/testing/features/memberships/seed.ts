import { dateOf, startOfDate } from '../../state/dates.js';
import { insertCardTransaction } from '../sales/cards.js';
import { insertSeedOrder } from '../sales/seed.js';
import { DAY_MS, HOUR_MS, isoAt, type SeedContext } from '../seed-context.js';
import type { DomainWorld } from '../world.js';
import { startBillingRuns } from './billing.js';
import { commitmentEnd, insertCharge, nextPeriodStart, PAY_HOST, payUrl, periodEnd } from './memberships.js';
import { type MembershipSeed, membershipSeeds, PLANS } from './seed-records.js';
import type { MembershipPlanRecord, MembershipRecord } from './state.js';

/**
 * Plans and memberships with their charge history (signup and dues; paid, failed, due, void), the dues
 * orders and card attempts behind them, then the nightly billing run on the clock. Nothing is seeded
 * when the shop has memberships off; without card processing, card and link billing become counter.
 */
export function seedMemberships(context: SeedContext): void {
  const { world } = context;
  if (!world.state.shop.settings.memberships) return;
  const created = isoAt(context, -500 * DAY_MS);
  for (const plan of PLANS) {
    world.state.memberships.plans.insert((id) => ({
      object: 'membership_plan',
      id,
      ...plan,
      created_at: created,
      updated_at: created,
    }));
  }
  for (const seed of membershipSeeds(dateOf(context.nowMs))) insertMembership(context, seed);
  startBillingRuns(world);
}

const at = (date: string, hours = 0) => new Date(startOfDate(date) + hours * HOUR_MS).toISOString();

function insertMembership(context: SeedContext, input: MembershipSeed): void {
  const { world } = context;
  const processing = world.state.shop.settings.cardProcessing;
  const seed = processing ? input : { ...input, billing: 'counter' as const, card: undefined };
  const plan = world.state.memberships.plans.get(seed.plan)!;
  const membership = world.state.memberships.memberships.insert((id) => ({
    object: 'membership',
    id,
    number: `M-${String(1000 + id)}`,
    plan_id: plan.id,
    customer_id: seed.customer,
    location_id: seed.location,
    status: seed.status,
    billing_method: seed.billing,
    has_saved_card: Boolean(seed.card),
    price_cents: plan.price_cents,
    started_on: seed.startedOn,
    current_period_start: seed.periodStart,
    current_period_end: periodEnd(plan, seed.periodStart),
    next_bill_on: seed.nextBillOn === undefined ? nextPeriodStart(plan, seed.periodStart) : seed.nextBillOn,
    commitment_ends_on: commitmentEnd(plan, seed.startedOn),
    cancel_at_period_end: seed.cancelAtPeriodEnd ?? false,
    cancel_reason: seed.cancelReason ?? null,
    cancelled_at: seed.cancelledOn ? at(seed.cancelledOn, 16) : null,
    frozen_until: seed.frozenUntil ?? null,
    guest_passes_left:
      seed.guestPassesLeft ?? Math.max(0, plan.guest_passes_per_period - world.random.int(0, 1)),
    source: 'register',
    card_link_url: `${PAY_HOST}/m/${world.random.hex(24)}/card`,
    members: [seed.customer, ...(seed.members ?? [])].map((customerId, index) => ({
      customer_id: customerId,
      role: index === 0 ? 'primary' : 'member',
      added_at: at(seed.startedOn, 11 + index),
    })),
    created_at: at(seed.startedOn, 11),
    updated_at: [
      at(seed.startedOn, 11),
      at(seed.periodStart, 1),
      seed.cancelledOn ? at(seed.cancelledOn, 16) : '',
    ]
      .sort()
      .at(-1)!,
  }));
  world.state.memberships.extras.set(membership.id, { external_reference: null, card: seed.card ?? null });
  let start = seed.startedOn;
  while (start <= seed.periodStart) {
    const current = start === seed.periodStart;
    seedCharge(
      world,
      membership,
      plan,
      start,
      start === seed.startedOn,
      current ? seed.current : { status: 'paid' },
    );
    start = nextPeriodStart(plan, start);
  }
}

function seedCharge(
  world: DomainWorld,
  membership: MembershipRecord,
  plan: MembershipPlanRecord,
  start: string,
  signup: boolean,
  outcome: MembershipSeed['current'],
): void {
  const card = world.state.memberships.extras.get(membership.id)?.card ?? null;
  const amount = membership.price_cents + (signup ? plan.initiation_fee_cents : 0);
  const paid = outcome.status === 'paid';
  const paidAt = at(start, signup ? 11 : 1);
  const order = paid
    ? insertSeedOrder(world, {
        status: 'completed',
        source: signup || membership.billing_method === 'counter' ? 'pos' : 'membership',
        location_id: membership.location_id,
        customer_id: membership.customer_id,
        external_reference: null,
        lines: [
          {
            type: 'membership',
            product_id: plan.product_id,
            description: `${plan.name} ${signup ? 'sign-up' : 'dues'} from ${start}`,
            qty: 1,
            unit_price_cents: amount,
            total_cents: amount,
          },
        ],
        created_at: paidAt,
      })
    : null;
  const charge = insertCharge(world, membership, {
    kind: signup ? 'signup' : 'dues',
    period_start: start,
    period_end: periodEnd(plan, start),
    amount_cents: amount,
    status: outcome.status,
    due_on: start,
    attempts: outcome.attempts ?? (paid && !signup && card ? 1 : 0),
    last_error: outcome.status === 'failed' ? 'Card declined: insufficient funds' : null,
    order_id: order?.id ?? null,
    pay_url: paid || outcome.status === 'void' || membership.billing_method === 'card' ? null : payUrl(world),
    paid_at: paid ? paidAt : null,
  });
  if (!world.state.shop.settings.cardProcessing) return;
  const attempt = {
    kind: 'charge',
    purpose: 'membership',
    amountCents: amount,
    membershipChargeId: charge.id,
    customerId: membership.customer_id,
    locationId: membership.location_id,
  } as const;
  if (outcome.status === 'failed' && card) {
    for (let index = 0; index < charge.attempts; index++) {
      const tried = startOfDate(start) + [0, 3, 7][index]! * DAY_MS;
      insertCardTransaction(world, {
        ...attempt,
        mode: 'token',
        status: 'declined',
        card,
        entryMethod: 'card_on_file',
        at: tried,
      });
      membership.updated_at = new Date(tried).toISOString();
    }
  } else if (paid && order && membership.billing_method !== 'counter') {
    const viaLink = membership.billing_method === 'link' || (signup && !card);
    insertCardTransaction(world, {
      ...attempt,
      mode: signup && card ? 'terminal' : viaLink ? 'link' : 'token',
      status: 'approved',
      card: card ?? { brand: 'discover', last4: '1117' },
      entryMethod: signup && card ? 'chip' : viaLink ? 'online' : 'card_on_file',
      orderId: order.id,
      registerId: signup && card ? 1 : null,
      attached: true,
      at: Date.parse(paidAt),
    });
  }
}
