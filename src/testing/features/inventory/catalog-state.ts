import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/** A vendor the shop buys from. The reference names vendor_id only; name is the sandbox's own field. */
export interface VendorRecord {
  object: 'vendor';
  id: number;
  name: string;
}

/** One entry of a product's vendor list; setting vendor_id or vendor_sku makes that vendor preferred. */
export interface ProductVendor {
  vendor_id: number;
  vendor_sku: string | null;
  preferred: boolean;
}

/**
 * A catalog product: the inventory guide's fields, `effective_price_cents` computed when read, and the
 * sandbox's own guesses (name, cost_cents, the sale window's fields, track_inventory, vendors).
 */
export type ProductRecord = SandboxRecord<
  Api.Product,
  {
    object: 'product';
    cost_cents: number;
    sale_price_cents: number | null;
    sale_starts_at: string | null;
    sale_ends_at: string | null;
    vendors: ProductVendor[];
    track_inventory: boolean;
    storefront: { product_id: string; variant_id: string } | null;
    created_at: string;
    updated_at: string;
  },
  'effective_price_cents' | 'inventory'
>;

/** The shop's catalog and the vendors it buys from. */
export interface CatalogState {
  products: Table<ProductRecord>;
  vendors: Table<VendorRecord>;
}

export function createCatalogState(): CatalogState {
  return { products: new Table(), vendors: new Table() };
}
