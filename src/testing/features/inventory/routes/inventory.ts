import { listRoute } from '../../../http/list.js';
import { ok, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute } from '../../../http/rules.js';
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
  bodyRoute('inventory.adjust', {}, (context, body, fields) => {
    if (body.qty_delta === 0) fields.fail('qty_delta', 'must not be 0');
    fields.done();
    const adjustment = {
      sku: body.sku!,
      locationId: body.location_id,
      delta: body.qty_delta!,
      reason: body.reason ?? 'adjustment',
    };
    return ok(adjustStock(context.sandbox, context.key, adjustment));
  }),
  bodyRoute(
    'inventory.set',
    {
      sku: { required: true },
      // The reference does not name the count field; the sandbox takes the level's own qty_on_hand.
      qty_on_hand: { type: 'integer', required: true, minimum: 0 },
      reason: { type: 'string' },
      note: { type: 'string' },
    },
    (context, body, fields) => {
      fields.done();
      const count = {
        sku: body.sku!,
        locationId: body.location_id,
        count: body.qty_on_hand!,
        reason: body.reason ?? 'count',
      };
      return ok(setStock(context.sandbox, context.key, count));
    },
  ),
];
