import { notFound } from '../errors.js';
import { canSeeLocation } from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import { changedSince, paginate, readPageParams } from '../http/pagination.js';
import { ok, type RouteDefinition } from '../http/route.js';

/** Card transactions, read only (reference section 4). A shop without card processing has none. */
export const cardTransactionRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/v1/card-transactions',
    permission: 'card_transactions:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      // One status, one kind: unknown values match nothing (an empty list), as on reservations.
      const status = reader.string('status');
      const kind = reader.string('kind');
      const orderId = reader.integer('order_id');
      const locationId = reader.integer('location_id');
      const since = reader.dateTime('updated_since');
      const page = readPageParams(reader);
      reader.done();
      const rows = sandbox.state.cards.transactions.filter(
        (row) =>
          canSeeLocation(key, row.location_id) &&
          (status === undefined || row.status === status) &&
          (kind === undefined || row.kind === kind) &&
          (orderId === undefined || row.order_id === orderId) &&
          (locationId === undefined || row.location_id === locationId),
      );
      return paginate(
        changedSince(rows, since, (row) => row.updated_at),
        page,
        (row) => row.id,
      );
    },
  },
  {
    method: 'GET',
    path: '/v1/card-transactions/{id}',
    permission: 'card_transactions:read',
    handle: ({ sandbox, key, params }) => {
      const row = sandbox.state.cards.transactions.get(pathId(params, 'card transaction'));
      if (!row || !canSeeLocation(key, row.location_id)) throw notFound('card transaction');
      return ok({ ...row });
    },
  },
];
