import type { SandboxCore } from '../core.js';
import { apiError } from '../errors.js';
import { canSeeLocation } from '../http/access.js';
import type { ApiKey } from '../http/keys.js';
import type { ProductRecord } from '../state/catalog.js';
import { levelsOf } from './inventory.js';

/** What the counter charges now: the sale price inside its window, else the price. */
export function effectivePrice(product: ProductRecord, nowMs: number): number {
  if (product.sale_price_cents === null) return product.price_cents;
  const startsOk = product.sale_starts_at === null || Date.parse(product.sale_starts_at) <= nowMs;
  const endsOk = product.sale_ends_at === null || nowMs < Date.parse(product.sale_ends_at);
  return startsOk && endsOk ? product.sale_price_cents : product.price_cents;
}

/**
 * A product as the API shows it. With `inventory` it carries its levels per location: only the key's
 * locations for an API read, every location in event payloads ("product with inventory").
 */
export function renderProduct(
  core: SandboxCore,
  product: ProductRecord,
  options: { inventory: boolean; key?: ApiKey },
): Record<string, unknown> {
  const { vendors, ...fields } = product;
  const rendered: Record<string, unknown> = {
    ...fields,
    effective_price_cents: effectivePrice(product, core.clock.nowMs()),
    vendors: vendors.map((vendor) => ({ ...vendor })),
    storefront: product.storefront ? { ...product.storefront } : null,
  };
  if (options.inventory) {
    const key = options.key;
    rendered.inventory = levelsOf(core, product.id).filter(
      (level) => key === undefined || canSeeLocation(key, level.location_id),
    );
  }
  return rendered;
}

/** Whether any location holds stock of the product (for HAS_STOCK). */
export function hasStock(core: SandboxCore, productId: number): boolean {
  return core.state.inventory.levels
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
  core: SandboxCore,
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
    if (hasStock(core, product.id)) {
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
