import { findVisible } from '../../http/access.js';
import { pathId } from '../../http/fields.js';
import { listRoute } from '../../http/list.js';
import { routeFor } from '../../http/operations.js';
import { ok, type RouteDefinition } from '../../http/route.js';
import type { ReturnRecord } from './state.js';

function render(row: ReturnRecord): ReturnRecord {
  return { ...row, lines: row.lines.map((line) => ({ ...line })) };
}

/** Returns, read only, filtered to the key's locations (reference section 4). */
export const returnRoutes: readonly RouteDefinition[] = [
  listRoute<ReturnRecord>('returns.list', {
    rows: (sandbox) => sandbox.state.returns.returns,
    params: [
      { name: 'order_id', field: 'order_id' },
      { name: 'customer_id', field: 'customer_id' },
      { name: 'source', field: 'source' },
      { name: 'location_id', field: 'location_id' },
    ],
    // Returns have no updated_at: updated_since filters on creation time (reference section 4).
    changedAt: 'created_at',
    location: (row) => row.location_id,
    render,
  }),
  {
    ...routeFor('returns.retrieve'),
    handle: (context) =>
      ok(
        render(
          findVisible(
            context,
            context.sandbox.state.returns.returns,
            pathId(context.params, 'return'),
            'return',
          ),
        ),
      ),
  },
];
