import { ensureStockRow, moveStock, productBySku, stockRow } from '../domain/inventory.js';
import { apiError, notFound } from '../errors.js';
import { defaultLocationId, requireWritableLocation } from '../http/access.js';
import { FieldReader } from '../http/fields.js';
import { listRoute } from '../http/list.js';
import { routeFor } from '../http/operations.js';
import { ok, type RouteContext, type RouteDefinition } from '../http/route.js';
import type { ProductRecord } from '../state/catalog.js';
import type { SerializedUnitRecord, StockRow } from '../state/inventory.js';

/** The product and location a stock write names, after the checks every stock write shares. */
function stockTarget(
  context: RouteContext,
  reader: FieldReader,
  sku: string | undefined,
  locationId: number | undefined,
) {
  reader.done();
  const product = productBySku(context.sandbox, sku!);
  if (!product) throw notFound('product with that SKU');
  const location = locationId ?? defaultLocationId(context);
  requireWritableLocation(context, location);
  if (!product.track_inventory) {
    throw apiError('NOT_TRACKED', `${product.sku} does not track inventory`, {
      sku: product.sku,
    });
  }
  return { product, locationId: location };
}

/** 409 SERIALIZED: units are counted one by one (and received at the register), never as a number. */
function refuseSerialized(product: ProductRecord, what: string): void {
  if (product.is_serialized) {
    throw apiError('SERIALIZED', `${product.sku} is serialized: its ${what} follows its units`, {
      sku: product.sku,
    });
  }
}

/** The write's answer: the level plus what the inventory.changed event carries. */
function writeResult(row: StockRow, product: ProductRecord, delta: number, reason: string) {
  return { ...row.level, sku: product.sku, name: product.name, qty_delta: delta, reason };
}

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
      { name: 'product_id', kind: 'integer', field: 'product_id' },
      { name: 'status', kind: 'string', field: 'status' },
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
      const { product, locationId: location } = stockTarget(context, reader, sku, locationId);
      // The reference lists SERIALIZED for set and receive; a delta on units is refused the same way.
      refuseSerialized(product, 'count');
      const available = stockRow(context.sandbox, product.id, location)?.level.qty_available ?? 0;
      if (available + delta! < 0) {
        throw apiError('INSUFFICIENT_STOCK', `Only ${available} of ${product.sku} available`, {
          sku: product.sku,
          qty_available: available,
        });
      }
      const row = moveStock(context.sandbox, { product, locationId: location, onHandDelta: delta!, reason });
      return ok(writeResult(row, product, delta!, reason));
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
      const { product, locationId: location } = stockTarget(context, reader, sku, locationId);
      refuseSerialized(product, 'count');
      const current = stockRow(context.sandbox, product.id, location)?.level.qty_on_hand ?? 0;
      const delta = count! - current;
      // An unchanged count moves nothing, so no inventory.changed fires.
      const row =
        delta === 0
          ? ensureStockRow(context.sandbox, product, location)
          : moveStock(context.sandbox, { product, locationId: location, onHandDelta: delta, reason });
      return ok(writeResult(row, product, delta, reason));
    },
  },
];
