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
 * A catalog product. The fields the inventory guide names (sku, upc, vendor_sku, vendor_id, price_cents,
 * map_price_cents, reorder_qty, is_firearm, is_serialized, is_nfa, product_type, storefront) are the
 * reference's; `effective_price_cents` is computed when read. The rest are the sandbox's own guesses:
 * name, cost_cents, the sale window (sale_price_cents, sale_starts_at, sale_ends_at: the reference says
 * "a sale window" without naming fields), track_inventory (what NOT_TRACKED checks) and vendors.
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
