import { notFound } from '../../../errors.js';
import { canSeeLocation } from '../../../http/access.js';
import { pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { ok, type RouteDefinition } from '../../../http/route.js';
import type { CardTransactionRecord } from '../cards-state.js';

/** Card transactions, read only (reference section 4). A shop without card processing has none. */
export const cardTransactionRoutes: readonly RouteDefinition[] = [
  listRoute<CardTransactionRecord>('cardTransactions.list', {
    rows: (sandbox) => sandbox.state.cards.transactions,
    // One status, one kind: unknown values match nothing (an empty list), as on reservations.
    params: [
      { name: 'status', field: 'status' },
      { name: 'kind', field: 'kind' },
      { name: 'order_id', field: 'order_id' },
      { name: 'location_id', field: 'location_id' },
    ],
    changedAt: 'updated_at',
    location: (row) => row.location_id,
  }),
  {
    ...routeFor('cardTransactions.retrieve'),
    handle: ({ sandbox, key, params }) => {
      const row = sandbox.state.cards.transactions.get(pathId(params, 'card transaction'));
      if (!row || !canSeeLocation(key, row.location_id)) throw notFound('card transaction');
      return ok({ ...row });
    },
  },
];
