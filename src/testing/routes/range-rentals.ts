import { renderRental, renderRentalDetail } from '../domain/rentals.js';
import { findVisible, visibleRows } from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import { changedSince, paginate, readPageParams } from '../http/pagination.js';
import { ok, type RouteDefinition } from '../http/route.js';

const RENTAL_STATUSES = ['available', 'checked_out', 'maintenance', 'retired'];

/** The rental-gun fleet and its custody history: read only, range:read (reference section 4). */
export const rangeRentalRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/v1/range/rentals',
    permission: 'range:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const status = reader.string('status', { oneOf: RENTAL_STATUSES });
      const locationId = reader.integer('location_id');
      const since = reader.dateTime('updated_since');
      const page = readPageParams(reader);
      reader.done();
      const rows = visibleRows(key, sandbox.state.range.rentals.all()).filter(
        (row) =>
          (status === undefined || row.status === status) &&
          (locationId === undefined || row.location_id === locationId),
      );
      return paginate(
        changedSince(rows, since, (row) => row.updated_at),
        page,
        (row) => row.id,
        (row) => renderRental(sandbox, row),
      );
    },
  },
  {
    method: 'GET',
    path: '/v1/range/rentals/{id}',
    permission: 'range:read',
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
  {
    method: 'GET',
    path: '/v1/range/rental-checkouts',
    permission: 'range:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const rentalId = reader.integer('rental_id');
      const customerId = reader.integer('customer_id');
      const reservationId = reader.integer('reservation_id');
      const open = reader.boolean('open');
      const locationId = reader.integer('location_id');
      const since = reader.dateTime('updated_since');
      const page = readPageParams(reader);
      reader.done();
      const { checkouts, checkoutChangedAt } = sandbox.state.range;
      const rows = visibleRows(key, checkouts.all()).filter(
        (row) =>
          (rentalId === undefined || row.rental_id === rentalId) &&
          (customerId === undefined || row.customer_id === customerId) &&
          (reservationId === undefined || row.reservation_id === reservationId) &&
          (open === undefined || (row.checked_in_at === null) === open) &&
          (locationId === undefined || row.location_id === locationId),
      );
      // Checkouts have no updated_at: updated_since reads when the checkout last changed (out or back in).
      const changed = changedSince(rows, since, (row) => checkoutChangedAt.get(row.id) ?? row.checked_out_at);
      return paginate(changed, page, (row) => row.id);
    },
  },
];
