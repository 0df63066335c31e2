import type { SandboxCore } from '../core.js';
import { completeSale } from '../domain/orders.js';
import { touch } from '../domain/stamps.js';
import { SandboxUsageError } from '../errors.js';
import { LANE_OVERTIME_PRODUCT } from '../seed/catalog.js';
import type { RangeReservationRecord } from '../state/range.js';

/**
 * Closes a range visit at the register: the reservation becomes completed (range.reservation.completed);
 * overtime is rung up as a sale.completed order and added to the reservation as an adjustment line.
 */
export function closeVisit(
  core: SandboxCore,
  reservationId: number,
  options: { overtimeCents?: number } = {},
): RangeReservationRecord {
  const reservation = core.state.range.reservations.get(reservationId);
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
  if (overtime > 0) {
    const line = {
      type: 'range_fee',
      product_id: LANE_OVERTIME_PRODUCT,
      description: `Lane overtime, reservation #${reservation.id}`,
      qty: 1,
      unit_price_cents: overtime,
      total_cents: overtime,
    };
    const order = completeSale(core, {
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
  const now = core.clock.iso();
  Object.assign(reservation, { status: 'completed', completed_at: now });
  touch(reservation, core.clock.nowMs());
  core.events.record('range.reservation.completed', reservation);
  return reservation;
}
