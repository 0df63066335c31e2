import { SandboxApiError, SandboxUsageError } from '../../errors.js';
import { productBySku } from '../inventory/inventory.js';
import { effectivePrice } from '../inventory/products.js';
import type { DomainWorld } from '../world.js';
import type { OrderRecord } from './orders-state.js';
import { checkStock, type ProductLine, placeOrder } from './sales.js';

/** One line rung up at the register: a product by SKU or id. */
export interface SellLine {
  /** The product's SKU; or give `productId`. */
  sku?: string;
  productId?: number;
  /** @default 1 */
  qty?: number;
  /** @default the product's effective price (the sale price inside its window) */
  unitPriceCents?: number;
}

/** What `sandbox.register.sell` rings up. */
export interface SellOptions {
  /** The buyer, or null for a walk-in sale. @default null */
  customerId?: number | null;
  /** @default the shop's main location */
  locationId?: number;
  lines: readonly SellLine[];
}

/**
 * A completed sale at the register: sale.completed (firearms arrive as awaiting_transfer with the unit
 * held), then inventory.changed per tracked line. Stock moves from outside the API, as it does in a
 * real shop; not enough stock is refused as the register would (negative stock is off in the sandbox).
 */
export function sell(world: DomainWorld, options: SellOptions): OrderRecord {
  const locationId = options.locationId ?? world.state.shop.mainLocationId;
  if (!world.state.shop.locations.get(locationId)) throw new SandboxUsageError(`No location ${locationId}`);
  const customerId = options.customerId ?? null;
  if (customerId !== null && !world.state.shop.customers.get(customerId)) {
    throw new SandboxUsageError(`No customer ${customerId}`);
  }
  if (!Array.isArray(options.lines) || options.lines.length === 0) {
    throw new SandboxUsageError('sell needs at least one line');
  }
  const lines: ProductLine[] = options.lines.map((line) => {
    const product =
      line.sku !== undefined
        ? productBySku(world, line.sku)
        : world.state.catalog.products.get(line.productId ?? -1);
    if (!product) throw new SandboxUsageError(`No product ${line.sku ?? line.productId}`);
    const qty = line.qty ?? 1;
    if (!Number.isSafeInteger(qty) || qty < 1)
      throw new SandboxUsageError('qty must be a whole number of at least 1');
    const unitPriceCents = line.unitPriceCents ?? effectivePrice(product, world.clock.nowMs());
    if (!Number.isSafeInteger(unitPriceCents) || unitPriceCents < 0) {
      throw new SandboxUsageError('unitPriceCents must be a whole number of cents');
    }
    return { product, qty, unitPriceCents };
  });
  const order = {
    locationId,
    customerId,
    lines,
    status: 'completed' as const,
    source: 'pos',
    externalReference: null,
  };
  try {
    checkStock(world, order);
  } catch (error) {
    if (error instanceof SandboxApiError) throw new SandboxUsageError(error.message);
    throw error;
  }
  return placeOrder(world, order, 'sale.completed');
}
