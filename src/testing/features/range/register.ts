import { SandboxUsageError } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import { completeSale } from '../sales/orders.js';
import { LANE_OVERTIME_PRODUCT } from '../seed-catalog.js';
import type { DomainWorld } from '../world.js';
import { CONDITION, returnRental } from './rentals.js';
import type { RangeReservationRecord } from './state.js';

/** How one gun rented on the visit comes back over the counter when the visit closes. */
export interface VisitRentalReturn {
  /** A gun checked out on this reservation and still out. */
  rentalId: number;
  /** `Good`, `Needs cleaning` or `Damaged`, optionally with `: note`. @default 'Good' */
  condition?: string;
  /** Rounds fired, added to the gun's round_count. @default null (not recorded) */
  roundsFired?: number | null;
}

/** What `sandbox.register.closeVisit` takes. */
export interface CloseVisitOptions {
  /** Overtime or fees rung up as a sale.completed order. @default 0 (no order) */
  overtimeCents?: number;
  /**
   * How the guns out on this visit come back; every gun still out on it is returned, those not named
   * here in condition Good with no rounds recorded.
   */
  rentals?: readonly VisitRentalReturn[];
}

/**
 * Closes a range visit at the register in counter order: guns checked in, overtime rung up, then the visit
 * completed, so a receiver seeing the completion was told of the rest. Every input is checked first.
 */
export function closeVisit(
  world: DomainWorld,
  reservationId: number,
  options: CloseVisitOptions = {},
): RangeReservationRecord {
  const reservation = world.state.range.reservations.get(reservationId);
  if (!reservation) throw new SandboxUsageError(`No reservation ${reservationId}`);
  // The reference does not show which states a visit closes from; the sandbox closes visits that arrived.
  if (reservation.status !== 'checked_in' && reservation.status !== 'in_progress') {
    throw new SandboxUsageError(
      `Reservation ${reservationId} is ${reservation.status}: only a checked-in visit can be closed`,
    );
  }
  const overtime = options.overtimeCents ?? 0;
  if (!(Number.isSafeInteger(overtime) && overtime >= 0)) {
    throw new SandboxUsageError('overtimeCents must be a whole number of cents');
  }
  const returns = plannedReturns(world, reservation, options.rentals ?? []);
  for (const [rentalId, how] of returns) returnRental(world, rentalId, how);
  if (overtime > 0) {
    const line = {
      type: 'range_fee',
      product_id: LANE_OVERTIME_PRODUCT,
      description: `Lane overtime, reservation #${reservation.id}`,
      qty: 1,
      unit_price_cents: overtime,
      total_cents: overtime,
    };
    const order = completeSale(world, {
      locationId: reservation.location_id,
      customerId: reservation.customer_ids[0] ?? null,
      lines: [line],
    });
    reservation.order_id ??= order.id;
    reservation.lines = [
      ...reservation.lines,
      {
        kind: 'adjustment',
        resource_id: reservation.lines[0]?.resource_id ?? 0,
        product_id: LANE_OVERTIME_PRODUCT,
        description: 'Lane overtime',
        quantity: 1,
        unit_cents: overtime,
        total_cents: overtime,
      },
    ];
  }
  const now = world.clock.iso();
  Object.assign(reservation, { status: 'completed', completed_at: now });
  touch(reservation, world.clock.nowMs());
  world.events.record('range.reservation.completed', reservation);
  return reservation;
}

/** The guns out on the visit, oldest checkout first, each with how it comes back; refuses bad input. */
function plannedReturns(
  world: DomainWorld,
  reservation: RangeReservationRecord,
  given: readonly VisitRentalReturn[],
): Map<number, { condition: string; roundsFired: number | null }> {
  if (!Array.isArray(given)) throw new SandboxUsageError('rentals must be a list of { rentalId, ... }');
  const out = world.state.range.checkouts
    .filter((row) => row.reservation_id === reservation.id && row.checked_in_at === null)
    .sort((a, b) => a.id - b.id);
  const plan = new Map(
    out.map((row) => [row.rental_id, { condition: 'Good', roundsFired: null as number | null }]),
  );
  const named = new Set<number>();
  for (const entry of given) {
    const { rentalId } = entry;
    if (!plan.has(rentalId)) {
      throw new SandboxUsageError(`Rental ${rentalId} is not out on reservation ${reservation.id}`);
    }
    if (named.has(rentalId)) throw new SandboxUsageError(`Rental ${rentalId} is named twice`);
    named.add(rentalId);
    const condition = entry.condition ?? 'Good';
    if (!CONDITION.test(condition)) throw new SandboxUsageError(`Bad condition "${condition}"`);
    const rounds = entry.roundsFired ?? null;
    if (rounds !== null && !(Number.isSafeInteger(rounds) && rounds >= 0)) {
      throw new SandboxUsageError('roundsFired must be a whole number of rounds');
    }
    plan.set(rentalId, { condition, roundsFired: rounds });
  }
  return plan;
}
