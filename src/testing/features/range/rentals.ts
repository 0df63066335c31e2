import { SandboxUsageError } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import type { DomainWorld } from '../world.js';
import type { RangeRentalCheckoutRecord, RangeRentalRecord } from './state.js';

/** Condition vocabulary staff record (reference section 2): Good, Needs cleaning or Damaged, then `: note`. */
export const CONDITION = /^(Good|Needs cleaning|Damaged)(: .+)?$/;

/** The open checkout of a gun, if it is out. */
export function openCheckout(world: DomainWorld, rentalId: number): RangeRentalCheckoutRecord | null {
  return (
    world.state.range.checkouts.find((row) => row.rental_id === rentalId && row.checked_in_at === null) ??
    null
  );
}

/** The rental as the API shows it: `checkout` is the open checkout or null. */
export function renderRental(world: DomainWorld, rental: RangeRentalRecord): Record<string, unknown> {
  return { ...rental, checkout: openCheckout(world, rental.id) };
}

/** The single-record read: the rental plus its last 20 checkouts, newest first. */
export function renderRentalDetail(world: DomainWorld, rental: RangeRentalRecord): Record<string, unknown> {
  const recent = world.state.range.checkouts
    .filter((row) => row.rental_id === rental.id)
    .sort((a, b) => b.checked_out_at.localeCompare(a.checked_out_at) || b.id - a.id)
    .slice(0, 20);
  return { ...renderRental(world, rental), recent_checkouts: recent };
}

function rentalOrThrow(world: DomainWorld, rentalId: number): RangeRentalRecord {
  const rental = world.state.range.rentals.get(rentalId);
  if (!rental) throw new SandboxUsageError(`No rental gun ${rentalId}`);
  return rental;
}

function requireStatus(rental: RangeRentalRecord, status: RangeRentalRecord['status'], action: string): void {
  if (rental.status !== status) {
    throw new SandboxUsageError(
      `Rental ${rental.id} is ${rental.status}: only a gun that is ${status} can be ${action}`,
    );
  }
}

/** available -> checked_out: a checkout opens; range.rental.checked_out. */
export function rentOut(
  world: DomainWorld,
  rentalId: number,
  options: { customerId: number; reservationId?: number | null; condition?: string; orderId?: number | null },
): RangeRentalRecord {
  const rental = rentalOrThrow(world, rentalId);
  requireStatus(rental, 'available', 'rented out');
  if (!world.state.shop.customers.get(options.customerId)) {
    throw new SandboxUsageError(`No customer ${options.customerId}`);
  }
  if (options.reservationId != null && !world.state.range.reservations.get(options.reservationId)) {
    throw new SandboxUsageError(`No reservation ${options.reservationId}`);
  }
  const condition = options.condition ?? 'Good';
  if (!CONDITION.test(condition)) throw new SandboxUsageError(`Bad condition "${condition}"`);
  const now = world.clock.iso();
  const checkout = world.state.range.checkouts.insert((id) => ({
    object: 'range_rental_checkout',
    id,
    rental_id: rental.id,
    location_id: rental.location_id,
    customer_id: options.customerId,
    reservation_id: options.reservationId ?? null,
    order_id: options.orderId ?? null,
    checked_out_at: now,
    condition_out: condition,
    checked_in_at: null,
    condition_in: null,
    rounds_fired: null,
  }));
  world.state.range.checkoutChangedAt.set(checkout.id, now);
  rental.status = 'checked_out';
  touch(rental, world.clock.nowMs());
  world.events.record('range.rental.checked_out', renderRental(world, rental));
  return rental;
}

/**
 * checked_out -> available (Good; the reference does not show the status after a Good return) or
 * maintenance (Needs cleaning, Damaged). checked_in carries last_checkout; out_of_service follows it.
 */
export function returnRental(
  world: DomainWorld,
  rentalId: number,
  options: { condition?: string; roundsFired?: number | null } = {},
): RangeRentalRecord {
  const rental = rentalOrThrow(world, rentalId);
  requireStatus(rental, 'checked_out', 'returned');
  const condition = options.condition ?? 'Good';
  if (!CONDITION.test(condition)) throw new SandboxUsageError(`Bad condition "${condition}"`);
  const rounds = options.roundsFired ?? null;
  if (rounds !== null && !(Number.isSafeInteger(rounds) && rounds >= 0)) {
    throw new SandboxUsageError('roundsFired must be a whole number of rounds');
  }
  const checkout = openCheckout(world, rental.id);
  const now = world.clock.iso();
  if (checkout) {
    Object.assign(checkout, { checked_in_at: now, condition_in: condition, rounds_fired: rounds });
    world.state.range.checkoutChangedAt.set(checkout.id, now);
  }
  const needsService = !condition.startsWith('Good');
  Object.assign(rental, {
    status: needsService ? 'maintenance' : 'available',
    round_count: rental.round_count + (rounds ?? 0),
    out_of_service_reason: needsService ? `Returned: ${condition}` : null,
  });
  touch(rental, world.clock.nowMs());
  world.events.record('range.rental.checked_in', { ...renderRental(world, rental), last_checkout: checkout });
  if (needsService) world.events.record('range.rental.out_of_service', renderRental(world, rental));
  return rental;
}

/** Takes an available gun out of service (e.g. for its scheduled service). */
export function takeOutOfService(world: DomainWorld, rentalId: number, reason: string): RangeRentalRecord {
  const rental = rentalOrThrow(world, rentalId);
  requireStatus(rental, 'available', 'taken out of service');
  Object.assign(rental, {
    status: 'maintenance',
    out_of_service_reason: reason,
  });
  touch(rental, world.clock.nowMs());
  world.events.record('range.rental.out_of_service', renderRental(world, rental));
  return rental;
}

/** maintenance -> available, serviced today; range.rental.returned_to_service. */
export function returnToService(world: DomainWorld, rentalId: number): RangeRentalRecord {
  const rental = rentalOrThrow(world, rentalId);
  requireStatus(rental, 'maintenance', 'returned to service');
  const now = world.clock.iso();
  Object.assign(rental, {
    status: 'available',
    out_of_service_reason: null,
    last_serviced_on: now.slice(0, 10),
  });
  touch(rental, world.clock.nowMs());
  world.events.record('range.rental.returned_to_service', renderRental(world, rental));
  return rental;
}
