import { findVisible, visibleRows } from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import { changedSince, paginate, readPageParams } from '../http/pagination.js';
import { ok, type RouteDefinition } from '../http/route.js';
import type { ReturnRecord } from '../state/returns.js';

function render(row: ReturnRecord): ReturnRecord {
  return { ...row, lines: row.lines.map((line) => ({ ...line })) };
}

/** Returns, read only, filtered to the key's locations (reference section 4). */
export const returnRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/v1/returns',
    permission: 'returns:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const orderId = reader.integer('order_id');
      const customerId = reader.integer('customer_id');
      const source = reader.string('source');
      const locationId = reader.integer('location_id');
      const since = reader.dateTime('updated_since');
      const page = readPageParams(reader);
      reader.done();
      const rows = visibleRows(key, sandbox.state.returns.returns.all()).filter(
        (row) =>
          (orderId === undefined || row.order_id === orderId) &&
          (customerId === undefined || row.customer_id === customerId) &&
          (source === undefined || row.source === source) &&
          (locationId === undefined || row.location_id === locationId),
      );
      // Returns have no updated_at: updated_since filters on creation time (reference section 4).
      return paginate(
        changedSince(rows, since, (row) => row.created_at),
        page,
        (row) => row.id,
        render,
      );
    },
  },
  {
    method: 'GET',
    path: '/v1/returns/{id}',
    permission: 'returns:read',
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
