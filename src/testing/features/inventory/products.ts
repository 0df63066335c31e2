import { apiError, type FieldProblems, notFound } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import { type Actor, canSeeLocation } from '../actor.js';
import type { DomainWorld } from '../world.js';
import type { ProductRecord } from './catalog-state.js';
import { levelsOf } from './inventory.js';

/** What the counter charges now: the sale price inside its window, else the price. */
export function effectivePrice(product: ProductRecord, nowMs: number): number {
  if (product.sale_price_cents === null) return product.price_cents;
  const startsOk = product.sale_starts_at === null || Date.parse(product.sale_starts_at) <= nowMs;
  const endsOk = product.sale_ends_at === null || nowMs < Date.parse(product.sale_ends_at);
  return startsOk && endsOk ? product.sale_price_cents : product.price_cents;
}

/**
 * A product as the API shows it. With `inventory` it carries its levels per location: only the acting
 * key's locations for an API read, every location in event payloads ("product with inventory").
 */
export function renderProduct(
  world: DomainWorld,
  product: ProductRecord,
  options: { inventory: boolean; actor?: Actor },
): Record<string, unknown> {
  const { vendors, ...fields } = product;
  const rendered: Record<string, unknown> = {
    ...fields,
    effective_price_cents: effectivePrice(product, world.clock.nowMs()),
    vendors: vendors.map((vendor) => ({ ...vendor })),
    storefront: product.storefront ? { ...product.storefront } : null,
  };
  if (options.inventory) {
    const actor = options.actor;
    rendered.inventory = levelsOf(world, product.id).filter(
      (level) => actor === undefined || canSeeLocation(actor, level.location_id),
    );
  }
  return rendered;
}

/** Whether any location holds stock of the product (for HAS_STOCK). */
export function hasStock(world: DomainWorld, productId: number): boolean {
  return world.state.inventory.levels
    .all()
    .some((row) => row.level.product_id === productId && row.level.qty_on_hand > 0);
}

/** The fields whose change on an existing product is a compliance matter (reference section 7). */
export const COMPLIANCE_FIELDS = ['is_firearm', 'is_serialized', 'is_nfa', 'product_type'] as const;

/**
 * Refuses a change of a compliance field: is_firearm and is_nfa never change through the API;
 * product_type not to or from firearm; is_serialized not on a firearm (COMPLIANCE_FIELD) and not while
 * stock is on hand (HAS_STOCK). Sending the current value is not a change.
 */
export function checkComplianceChange(
  world: DomainWorld,
  product: ProductRecord,
  field: (typeof COMPLIANCE_FIELDS)[number],
  value: unknown,
): void {
  if (product[field] === value) return;
  const refuse = () =>
    apiError('COMPLIANCE_FIELD', `${field} cannot be changed on an existing product`, {
      field,
    });
  if (field === 'is_firearm' || field === 'is_nfa') throw refuse();
  if (field === 'product_type' && (product.product_type === 'firearm' || value === 'firearm')) throw refuse();
  if (field === 'is_serialized') {
    if (product.is_firearm) throw refuse();
    if (hasStock(world, product.id)) {
      throw apiError('HAS_STOCK', 'is_serialized cannot flip while stock is on hand', {
        field,
      });
    }
  }
}

/** Setting vendor_id or vendor_sku makes that vendor the preferred one on the product's vendor list. */
export function preferVendor(product: ProductRecord): void {
  if (product.vendor_id === null) return;
  let entry = product.vendors.find((vendor) => vendor.vendor_id === product.vendor_id);
  if (!entry) {
    entry = { vendor_id: product.vendor_id, vendor_sku: product.vendor_sku, preferred: true };
    product.vendors.push(entry);
  }
  entry.vendor_sku = product.vendor_sku;
  for (const vendor of product.vendors) vendor.preferred = vendor === entry;
}

/** What a product update changes (undefined: left as it is; null clears a nullable field). */
export type ProductChanges = Partial<
  Pick<
    ProductRecord,
    | 'price_cents'
    | 'vendor_id'
    | 'sku'
    | 'sale_price_cents'
    | 'sale_starts_at'
    | 'sale_ends_at'
    | 'vendor_sku'
    | 'reorder_qty'
    | 'is_firearm'
    | 'is_serialized'
    | 'is_nfa'
    | 'product_type'
  >
>;

/** The vendor a request's `vendor_id` names: an unknown one is an input error on the field. */
export function vendorNamed(world: DomainWorld, id: number, problems: FieldProblems): void {
  if (!world.state.catalog.vendors.get(id)) problems.fail('vendor_id', 'is not a vendor of this shop');
}

/** The product, or 404 NOT_FOUND. */
export function findProduct(world: DomainWorld, id: number): ProductRecord {
  const product = world.state.catalog.products.get(id);
  if (!product) throw notFound('product');
  return product;
}

/**
 * PATCH /v1/products/{id}'s rule: compliance fields refused unless unchanged, a SKU another product has is
 * 409 SKU_TAKEN; a real change stamps the product and fires product.updated (with inventory). Answers the
 * product as the API shows it, without inventory.
 */
export function updateProduct(world: DomainWorld, product: ProductRecord, changes: ProductChanges) {
  for (const field of COMPLIANCE_FIELDS) {
    if (changes[field] !== undefined) checkComplianceChange(world, product, field, changes[field]);
  }
  if (changes.sku !== undefined) {
    const wanted = changes.sku.toUpperCase();
    const owner = world.state.catalog.products.find(
      (row) => row.id !== product.id && row.sku.toUpperCase() === wanted,
    );
    if (owner)
      throw apiError('SKU_TAKEN', `The SKU ${changes.sku} belongs to another product`, {
        sku: changes.sku,
      });
  }
  const before = JSON.stringify(product);
  Object.assign(product, changes);
  if (changes.vendor_id !== undefined || changes.vendor_sku !== undefined) preferVendor(product);
  if (JSON.stringify(product) !== before) {
    touch(product, world.clock.nowMs());
    world.events.record('product.updated', renderProduct(world, product, { inventory: true }));
  }
  return renderProduct(world, product, { inventory: false });
}
