import { catalogProduct, RENTAL_UNITS } from '../seed-catalog.js';
import { DAY_MS, HOUR_MS, isoAt, type SeedContext } from '../seed-context.js';
import type { RangeRentalCheckoutRecord } from './state.js';

type CheckoutSeed = Omit<RangeRentalCheckoutRecord, 'id'>;

/**
 * The rental walls: guns from the catalog with 60 days of custody history. One gun is out on today's
 * checked-in lane visit, one is in maintenance after a damaged return, one is retired.
 */
export function seedRentals(context: SeedContext): void {
  const { world } = context;
  const { range } = world.state;
  const out = range.reservations.find((reservation) => reservation.status === 'checked_in');
  const history: CheckoutSeed[] = [];
  for (const [index, unit] of RENTAL_UNITS.entries()) {
    const product = catalogProduct(unit.product_id);
    const status = unit.id === 9507 ? 'retired' : unit.id === 9506 ? 'maintenance' : 'available';
    const rental = range.rentals.insert((id) => ({
      object: 'range_rental',
      id,
      location_id: unit.location_id,
      product_id: product.id,
      serialized_item_id: unit.id,
      name: product.name,
      caliber: product.caliber!,
      firearm_type: product.firearm_type!,
      serial_number: unit.serial_number,
      tag: `RT-${String(1000 + index + 1)}`,
      status,
      fee_cents: product.price_cents,
      min_age: product.min_age!,
      round_count: world.random.int(800, 6000),
      last_serviced_on:
        index % 3 === 2 ? null : isoAt(context, -world.random.int(20, 90) * DAY_MS).slice(0, 10),
      out_of_service_reason: null,
      updated_at: isoAt(context, -60 * DAY_MS),
    }));
    if (status === 'retired') continue;
    const visits = world.random.int(3, 8);
    for (let visit = 0; visit < visits; visit++) {
      const outAt = context.nowMs - world.random.int(2, 60) * DAY_MS - world.random.int(0, 8) * HOUR_MS;
      const rounds = world.random.int(50, 300);
      history.push({
        object: 'range_rental_checkout',
        rental_id: rental.id,
        location_id: rental.location_id,
        customer_id: world.random.int(1, 13),
        reservation_id: null,
        order_id: null,
        checked_out_at: new Date(outAt).toISOString(),
        condition_out: 'Good',
        checked_in_at: new Date(outAt + world.random.int(1, 3) * HOUR_MS).toISOString(),
        condition_in: visit % 5 === 4 ? 'Needs cleaning' : 'Good',
        rounds_fired: rounds,
      });
    }
  }
  // Damaged returns are the newest checkout of their gun, so the gun is still in maintenance.
  history.sort((a, b) => a.checked_out_at.localeCompare(b.checked_out_at));
  const damaged = history.filter((row) => row.rental_id === 6).at(-1);
  if (damaged) damaged.condition_in = 'Damaged: cracked forend';
  for (const row of history) {
    const checkout = range.checkouts.insert((id) => ({ ...row, id }));
    range.checkoutChangedAt.set(checkout.id, checkout.checked_in_at ?? checkout.checked_out_at);
    const rental = range.rentals.get(row.rental_id)!;
    rental.round_count += row.rounds_fired ?? 0;
    rental.updated_at = checkout.checked_in_at ?? rental.updated_at;
  }
  const repair = range.rentals.get(6)!;
  repair.out_of_service_reason = 'Returned: Damaged: cracked forend';
  if (out) checkOutOnVisit(context, out.id, out.customer_ids[0]!, out.checked_in_at!);
}

/** The AR-15 went out on today's checked-in lane visit and is still out. */
function checkOutOnVisit(context: SeedContext, reservationId: number, customerId: number, at: string): void {
  const { range } = context.world.state;
  const rental = range.rentals.get(5)!;
  const checkout = range.checkouts.insert((id) => ({
    object: 'range_rental_checkout',
    id,
    rental_id: rental.id,
    location_id: rental.location_id,
    customer_id: customerId,
    reservation_id: reservationId,
    order_id: null,
    checked_out_at: at,
    condition_out: 'Good',
    checked_in_at: null,
    condition_in: null,
    rounds_fired: null,
  }));
  range.checkoutChangedAt.set(checkout.id, at);
  Object.assign(rental, { status: 'checked_out', updated_at: at });
}
