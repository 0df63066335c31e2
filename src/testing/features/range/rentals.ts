import type { SandboxCore } from '../../core.js';
import { SandboxUsageError } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import type { RangeRentalCheckoutRecord, RangeRentalRecord } from './state.js';

/** Condition vocabulary staff record (reference section 2): Good, Needs cleaning or Damaged, then `: note`. */
export const CONDITION = /^(Good|Needs cleaning|Damaged)(: .+)?$/;

/** The open checkout of a gun, if it is out. */
export function openCheckout(core: SandboxCore, rentalId: number): RangeRentalCheckoutRecord | null {
  return (
    core.state.range.checkouts.find((row) => row.rental_id === rentalId && row.checked_in_at === null) ?? null
  );
}

/** The rental as the API shows it: `checkout` is the open checkout or null. */
export function renderRental(core: SandboxCore, rental: RangeRentalRecord): Record<string, unknown> {
  return { ...rental, checkout: openCheckout(core, rental.id) };
}

/** The single-record read: the rental plus its last 20 checkouts, newest first. */
export function renderRentalDetail(core: SandboxCore, rental: RangeRentalRecord): Record<string, unknown> {
  const recent = core.state.range.checkouts
    .filter((row) => row.rental_id === rental.id)
    .sort((a, b) => b.checked_out_at.localeCompare(a.checked_out_at) || b.id - a.id)
    .slice(0, 20);
  return { ...renderRental(core, rental), recent_checkouts: recent };
}

function rentalOrThrow(core: SandboxCore, rentalId: number): RangeRentalRecord {
  const rental = core.state.range.rentals.get(rentalId);
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
  core: SandboxCore,
  rentalId: number,
  options: { customerId: number; reservationId?: number | null; condition?: string; orderId?: number | null },
): RangeRentalRecord {
  const rental = rentalOrThrow(core, rentalId);
  requireStatus(rental, 'available', 'rented out');
  if (!core.state.shop.customers.get(options.customerId)) {
    throw new SandboxUsageError(`No customer ${options.customerId}`);
  }
  if (options.reservationId != null && !core.state.range.reservations.get(options.reservationId)) {
    throw new SandboxUsageError(`No reservation ${options.reservationId}`);
  }
  const condition = options.condition ?? 'Good';
  if (!CONDITION.test(condition)) throw new SandboxUsageError(`Bad condition "${condition}"`);
  const now = core.clock.iso();
  const checkout = core.state.range.checkouts.insert((id) => ({
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
  core.state.range.checkoutChangedAt.set(checkout.id, now);
  rental.status = 'checked_out';
  touch(rental, core.clock.nowMs());
  core.events.record('range.rental.checked_out', renderRental(core, rental));
  return rental;
}

/**
 * checked_out -> available (Good; the reference does not show the status after a Good return) or
 * maintenance (Needs cleaning, Damaged). checked_in carries last_checkout; out_of_service follows it.
 */
export function returnRental(
  core: SandboxCore,
  rentalId: number,
  options: { condition?: string; roundsFired?: number | null } = {},
): RangeRentalRecord {
  const rental = rentalOrThrow(core, rentalId);
  requireStatus(rental, 'checked_out', 'returned');
  const condition = options.condition ?? 'Good';
  if (!CONDITION.test(condition)) throw new SandboxUsageError(`Bad condition "${condition}"`);
  const rounds = options.roundsFired ?? null;
  if (rounds !== null && !(Number.isSafeInteger(rounds) && rounds >= 0)) {
    throw new SandboxUsageError('roundsFired must be a whole number of rounds');
  }
  const checkout = openCheckout(core, rental.id);
  const now = core.clock.iso();
  if (checkout) {
    Object.assign(checkout, { checked_in_at: now, condition_in: condition, rounds_fired: rounds });
    core.state.range.checkoutChangedAt.set(checkout.id, now);
  }
  const needsService = !condition.startsWith('Good');
  Object.assign(rental, {
    status: needsService ? 'maintenance' : 'available',
    round_count: rental.round_count + (rounds ?? 0),
    out_of_service_reason: needsService ? `Returned: ${condition}` : null,
  });
  touch(rental, core.clock.nowMs());
  core.events.record('range.rental.checked_in', { ...renderRental(core, rental), last_checkout: checkout });
  if (needsService) core.events.record('range.rental.out_of_service', renderRental(core, rental));
  return rental;
}

/** Takes an available gun out of service (e.g. for its scheduled service). */
export function takeOutOfService(core: SandboxCore, rentalId: number, reason: string): RangeRentalRecord {
  const rental = rentalOrThrow(core, rentalId);
  requireStatus(rental, 'available', 'taken out of service');
  Object.assign(rental, {
    status: 'maintenance',
    out_of_service_reason: reason,
  });
  touch(rental, core.clock.nowMs());
  core.events.record('range.rental.out_of_service', renderRental(core, rental));
  return rental;
}

/** maintenance -> available, serviced today; range.rental.returned_to_service. */
export function returnToService(core: SandboxCore, rentalId: number): RangeRentalRecord {
  const rental = rentalOrThrow(core, rentalId);
  requireStatus(rental, 'maintenance', 'returned to service');
  const now = core.clock.iso();
  Object.assign(rental, {
    status: 'available',
    out_of_service_reason: null,
    last_serviced_on: now.slice(0, 10),
  });
  touch(rental, core.clock.nowMs());
  core.events.record('range.rental.returned_to_service', renderRental(core, rental));
  return rental;
}
