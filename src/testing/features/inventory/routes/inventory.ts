import { FieldReader } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { ok, type RouteDefinition } from '../../../http/route.js';
import { adjustStock, setStock } from '../inventory.js';
import type { SerializedUnitRecord, StockRow } from '../state.js';

/** Inventory levels, serialized units, and stock writes (reference section 4, inventory sync). */
export const inventoryRoutes: readonly RouteDefinition[] = [
  listRoute<StockRow>('inventory.list', {
    rows: (sandbox) => sandbox.state.inventory.levels,
    changedAt: (row) => Date.parse(row.level.updated_at),
    location: (row) => row.location_id,
    render: (row) => ({ ...row.level }),
  }),
  listRoute<SerializedUnitRecord>('inventory.listSerialized', {
    rows: (sandbox) => sandbox.state.inventory.units,
    params: [
      { name: 'product_id', field: 'product_id' },
      { name: 'status', field: 'status' },
    ],
    location: (row) => row.location_id,
  }),
  {
    ...routeFor('inventory.adjust'),
    handle: (context) => {
      const reader = FieldReader.body(context.body);
      const sku = reader.string('sku', { required: true });
      const locationId = reader.integer('location_id');
      const delta = reader.integer('qty_delta', { required: true });
      const reason = reader.string('reason') ?? 'adjustment';
      reader.string('note');
      if (delta === 0) reader.fail('qty_delta', 'must not be 0');
      reader.done();
      return ok(adjustStock(context.sandbox, context.key, { sku: sku!, locationId, delta: delta!, reason }));
    },
  },
  {
    ...routeFor('inventory.set'),
    handle: (context) => {
      const reader = FieldReader.body(context.body);
      const sku = reader.string('sku', { required: true });
      const locationId = reader.integer('location_id');
      // The reference does not name the count field; the sandbox takes the level's own qty_on_hand.
      const count = reader.integer('qty_on_hand', { required: true, min: 0 });
      const reason = reader.string('reason') ?? 'count';
      reader.string('note');
      reader.done();
      return ok(setStock(context.sandbox, context.key, { sku: sku!, locationId, count: count!, reason }));
    },
  },
];
