import { SandboxUsageError } from '../errors.js';
import type { ProductRecord } from '../features/inventory/catalog-state.js';
import { renderProduct } from '../features/inventory/products.js';
import type { InvoiceRecord } from '../features/sales/accounts-state.js';
import { referencesTo } from '../features/shop/references.js';
import type { DomainWorld } from '../features/world.js';
import { DAY_MS, dateOf } from '../state/dates.js';
import type { LocationRecord } from '../state/shop.js';

/** What `sandbox.owner.addLocation` takes. */
export interface NewLocation {
  name: string;
  address?: string;
  phone?: string;
  email?: string;
  businessHours?: string;
}

/** What `sandbox.owner.addProduct` takes. */
export interface NewProduct {
  sku: string;
  name: string;
  priceCents: number;
  /** @default 'accessory' */
  productType?: string;
  /** @default 60% of the price */
  costCents?: number;
  /** @default true */
  trackInventory?: boolean;
}

/** What `sandbox.owner.issueInvoice` takes. */
export interface NewInvoice {
  amountCents: number;
  /** @default 'invoice' */
  kind?: 'invoice' | 'statement';
  /** @default the shop's main location */
  locationId?: number;
  /** Days until it is due. @default 30 */
  dueInDays?: number;
}

/** A location added by the owner: location.created. */
export function addLocation(world: DomainWorld, input: NewLocation): LocationRecord {
  if (typeof input?.name !== 'string' || input.name.trim() === '') {
    throw new SandboxUsageError('addLocation needs a name');
  }
  const now = world.clock.iso();
  const location = world.state.shop.locations.insert((id) => ({
    object: 'location',
    id,
    name: input.name,
    address: input.address ?? '',
    phone: input.phone ?? '',
    email: input.email ?? '',
    business_hours: input.businessHours ?? '',
    storefront_location_id: null,
    created_at: now,
    updated_at: now,
  }));
  world.events.record('location.created', location, location.id);
  return location;
}

/** A product added in the back office: product.created (the product with its, still empty, inventory). */
export function addProduct(world: DomainWorld, input: NewProduct): ProductRecord {
  if (typeof input?.sku !== 'string' || input.sku.trim() === '')
    throw new SandboxUsageError('addProduct needs a sku');
  if (typeof input.name !== 'string' || input.name.trim() === '')
    throw new SandboxUsageError('addProduct needs a name');
  if (!Number.isSafeInteger(input.priceCents) || input.priceCents < 0) {
    throw new SandboxUsageError('priceCents must be a whole number of cents');
  }
  const wanted = input.sku.toUpperCase();
  if (world.state.catalog.products.find((product) => product.sku.toUpperCase() === wanted)) {
    throw new SandboxUsageError(`SKU ${input.sku} is taken`);
  }
  const now = world.clock.iso();
  const product = world.state.catalog.products.insert((id) => ({
    object: 'product',
    id,
    sku: input.sku,
    upc: null,
    name: input.name,
    product_type: input.productType ?? 'accessory',
    price_cents: input.priceCents,
    cost_cents: input.costCents ?? Math.round(input.priceCents * 0.6),
    map_price_cents: null,
    sale_price_cents: null,
    sale_starts_at: null,
    sale_ends_at: null,
    vendor_id: null,
    vendor_sku: null,
    vendors: [],
    reorder_qty: null,
    is_firearm: false,
    is_serialized: false,
    is_nfa: false,
    track_inventory: input.trackInventory ?? true,
    storefront: null,
    created_at: now,
    updated_at: now,
  }));
  world.events.record('product.created', renderProduct(world, product, { inventory: true }), null);
  return product;
}

/**
 * Deletes a product no order, purchase order, return, rental or stock points at (a product with history
 * stays, as a shop keeps it for its records): product.deleted with {object, id, deleted, sku, name}.
 */
export function deleteProduct(world: DomainWorld, productId: number): void {
  const product = world.state.catalog.products.get(productId);
  if (!product) throw new SandboxUsageError(`No product ${productId}`);
  const levels = world.state.inventory.levels;
  const rows = levels.filter((row) => row.level.product_id === productId);
  if (rows.some((row) => row.level.qty_on_hand !== 0 || row.level.qty_reserved !== 0)) {
    throw new SandboxUsageError(
      `Product ${productId} has stock: the sandbox deletes only products without any`,
    );
  }
  const used = referencesTo(world, 'product_id', productId, [levels]);
  if (used.length > 0) {
    throw new SandboxUsageError(
      `Product ${productId} has history (${used.join(', ')}): the sandbox deletes only products nothing points at`,
    );
  }
  for (const row of rows) levels.delete(row.id);
  world.state.catalog.products.delete(productId);
  world.events.record(
    'product.deleted',
    { object: 'product', id: product.id, deleted: true, sku: product.sku, name: product.name },
    null,
  );
}

/** An invoice (or monthly statement) issued to a customer's house account: invoice.created. */
export function issueInvoice(world: DomainWorld, customerId: number, input: NewInvoice): InvoiceRecord {
  if (!world.state.accounts.houseAccounts.has(customerId)) {
    throw new SandboxUsageError(`Customer ${customerId} has no house account`);
  }
  if (!Number.isSafeInteger(input?.amountCents) || input.amountCents <= 0) {
    throw new SandboxUsageError('amountCents must be a whole number of cents above 0');
  }
  const locationId = input.locationId ?? world.state.shop.mainLocationId;
  if (!world.state.shop.locations.get(locationId)) throw new SandboxUsageError(`No location ${locationId}`);
  const nowMs = world.clock.nowMs();
  const now = new Date(nowMs).toISOString();
  const invoice = world.state.accounts.invoices.insert((id) => ({
    object: 'invoice',
    id,
    number: `INV-${String(2000 + id)}`,
    kind: input.kind ?? 'invoice',
    customer_id: customerId,
    location_id: locationId,
    status: 'open',
    total_cents: input.amountCents,
    paid_cents: 0,
    balance_cents: input.amountCents,
    issued_on: dateOf(nowMs),
    due_on: dateOf(nowMs + (input.dueInDays ?? 30) * DAY_MS),
    created_at: now,
    updated_at: now,
  }));
  world.events.record('invoice.created', invoice);
  return invoice;
}
