import { findVisible } from '../../../http/access.js';
import { pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { ok, type RouteDefinition } from '../../../http/route.js';
import { renderRental, renderRentalDetail } from '../rentals.js';
import type { RangeRentalCheckoutRecord, RangeRentalRecord } from '../state.js';

/** The rental-gun fleet and its custody history: read only, range:read (reference section 4). */
export const rangeRentalRoutes: readonly RouteDefinition[] = [
  listRoute<RangeRentalRecord>('range.rentals.list', {
    rows: (sandbox) => sandbox.state.range.rentals,
    params: [
      // The reference: any other status value is 400 VALIDATION_ERROR (on rentals only).
      { name: 'status', refuseUnknown: true, field: 'status' },
      { name: 'location_id', field: 'location_id' },
    ],
    changedAt: 'updated_at',
    location: (row) => row.location_id,
    render: (row, { sandbox }) => renderRental(sandbox, row),
  }),
  {
    ...routeFor('range.rentals.retrieve'),
    handle: (context) => {
      const rental = findVisible(
        context,
        context.sandbox.state.range.rentals,
        pathId(context.params, 'rental'),
        'rental',
      );
      return ok(renderRentalDetail(context.sandbox, rental));
    },
  },
  listRoute<RangeRentalCheckoutRecord>('range.rentalCheckouts.list', {
    rows: (sandbox) => sandbox.state.range.checkouts,
    params: [
      { name: 'rental_id', field: 'rental_id' },
      { name: 'customer_id', field: 'customer_id' },
      { name: 'reservation_id', field: 'reservation_id' },
      { name: 'open', match: (row, open: boolean) => (row.checked_in_at === null) === open },
      { name: 'location_id', field: 'location_id' },
    ],
    // Checkouts have no updated_at: updated_since reads when the checkout last changed (out or back in).
    changedAt: (row, sandbox) =>
      Date.parse(sandbox.state.range.checkoutChangedAt.get(row.id) ?? row.checked_out_at),
    location: (row) => row.location_id,
  }),
];
