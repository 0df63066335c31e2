import { RANGE_CATALOG, RENTAL_UNITS } from '../seed-catalog.js';
import { DAY_MS, isoAt, type SeedContext } from '../seed-context.js';
import type { ProductRecord } from './catalog-state.js';
import type { SerializedUnitRecord } from './state.js';

type ProductSeed = Partial<ProductRecord> &
  Pick<ProductRecord, 'sku' | 'name' | 'product_type' | 'price_cents'>;

/** Retail products, ids 1 to 11 in this order. Stock per location: [location 1, location 2]. */
const RETAIL: readonly (ProductSeed & { stock?: readonly [number, number] })[] = [
  {
    sku: 'AMMO-FED-9MM-50',
    name: 'Federal American Eagle 9mm 115gr FMJ, 50 rounds',
    product_type: 'ammunition',
    price_cents: 1999,
    cost_cents: 1350,
    upc: '029465064532',
    vendor_id: 1,
    vendor_sku: 'AE9DP',
    reorder_qty: 20,
    storefront: { product_id: 'sf_prod_1001', variant_id: 'sf_var_1001' },
    stock: [48, 30],
  },
  {
    sku: 'AMMO-HRN-65CM-140',
    name: 'Hornady 6.5 Creedmoor 140gr ELD Match, 20 rounds',
    product_type: 'ammunition',
    price_cents: 3299,
    cost_cents: 2400,
    upc: '090255815005',
    vendor_id: 1,
    vendor_sku: '81500',
    storefront: { product_id: 'sf_prod_1002', variant_id: 'sf_var_1002' },
    stock: [18, 6],
  },
  {
    sku: 'ACC-WLK-RAZOR',
    name: "Walker's Razor Slim Electronic Muffs",
    product_type: 'accessory',
    price_cents: 5999,
    cost_cents: 3600,
    map_price_cents: 5999,
    vendor_id: 2,
    vendor_sku: 'GWP-RSEM',
    reorder_qty: 4,
    storefront: { product_id: 'sf_prod_1003', variant_id: 'sf_var_1003' },
    stock: [7, 3],
  },
  {
    sku: 'TGT-BC-SNC12',
    name: 'Birchwood Casey Shoot-N-C 12in targets, 5 pack',
    product_type: 'accessory',
    price_cents: 1299,
    cost_cents: 700,
    vendor_id: 1,
    vendor_sku: '34012',
    stock: [25, 12],
  },
  {
    sku: 'CLN-HOP-UNIV',
    name: "Hoppe's No. 9 Universal Cleaning Kit",
    product_type: 'accessory',
    price_cents: 2499,
    cost_cents: 1400,
    vendor_id: 2,
    vendor_sku: 'UO1',
    reorder_qty: 6,
    stock: [9, 4],
  },
  {
    sku: 'APP-TEE-RR-L',
    name: 'Ridgeline Range T-shirt, L',
    product_type: 'apparel',
    price_cents: 2200,
    cost_cents: 800,
    storefront: { product_id: 'sf_prod_1006', variant_id: 'sf_var_1006l' },
    stock: [0, 1],
  },
  {
    sku: 'ACC-EYE-CLR',
    name: 'Clear Shooting Glasses',
    product_type: 'accessory',
    price_cents: 899,
    cost_cents: 400,
    vendor_id: 1,
    vendor_sku: 'EYE-CLR',
    reorder_qty: 12,
    stock: [2, 10],
  },
  {
    sku: 'FA-GLK-G19G5',
    name: 'Glock 19 Gen5 9mm',
    product_type: 'firearm',
    price_cents: 54_999,
    cost_cents: 42_000,
    map_price_cents: 53_999,
    upc: '764503037108',
    vendor_id: 2,
    vendor_sku: 'PA195S203',
    is_firearm: true,
    is_serialized: true,
  },
  {
    sku: 'FA-RUG-1022',
    name: 'Ruger 10/22 Carbine .22 LR',
    product_type: 'firearm',
    price_cents: 32_999,
    cost_cents: 24_500,
    vendor_id: 2,
    vendor_sku: '1103',
    is_firearm: true,
    is_serialized: true,
  },
  {
    sku: 'NFA-SCO-OMEGA36',
    name: 'SilencerCo Omega 36M suppressor',
    product_type: 'firearm',
    price_cents: 99_900,
    cost_cents: 74_000,
    vendor_id: 2,
    vendor_sku: 'SU4000',
    is_firearm: true,
    is_serialized: true,
    is_nfa: true,
  },
  {
    sku: 'SVC-CLEAN-BASIC',
    name: 'Basic gun cleaning service',
    product_type: 'service',
    price_cents: 3500,
    track_inventory: false,
  },
];

/** Serialized retail units: [product id, location id, serial number, status]. Unit 5 is held on order 3. */
const UNITS: readonly (readonly [number, number, string, SerializedUnitRecord['status']])[] = [
  [8, 1, 'BXRK101', 'in_stock'],
  [8, 1, 'BXRK102', 'in_stock'],
  [8, 1, 'BXRK117', 'in_stock'],
  [8, 2, 'BXRK140', 'in_stock'],
  [8, 1, 'BXRK099', 'held'],
  [8, 1, 'BXRJ877', 'sold'],
  [9, 1, '0013-20551', 'in_stock'],
  [9, 1, '0013-20563', 'in_stock'],
  [10, 1, 'O36M-004417', 'in_stock'],
];

export const HELD_GLOCK_UNIT = 5;

/**
 * Two vendors and the catalog: retail products, the range catalog of seed-catalog.ts (rental guns as
 * serialized units), stock per location and the serialized units behind firearm counts.
 */
export function seedProducts(context: SeedContext): void {
  const { catalog } = context.world.state;
  catalog.vendors.insert((id) => ({ object: 'vendor', id, name: 'Sports South' }));
  catalog.vendors.insert((id) => ({ object: 'vendor', id, name: "Lipsey's" }));
  for (const [index, seed] of RETAIL.entries()) {
    const product = insertProduct(context, seed, isoAt(context, -(200 - index) * DAY_MS));
    if (seed.stock)
      for (const [slot, qty] of seed.stock.entries()) insertLevel(context, product.id, slot + 1, qty, index);
  }
  // The Hornady load is on sale now; the window is the sandbox's sale_price_cents / sale_starts_at / sale_ends_at.
  Object.assign(catalog.products.get(2)!, {
    sale_price_cents: 2899,
    sale_starts_at: isoAt(context, -2 * DAY_MS),
    sale_ends_at: isoAt(context, 5 * DAY_MS),
  });
  for (const item of RANGE_CATALOG) {
    const rental = item.kind === 'rental_gun';
    insertProduct(
      context,
      {
        id: item.id,
        sku: item.sku,
        name: item.name,
        product_type: rental ? 'firearm' : item.kind === 'class' ? 'class' : 'service',
        price_cents: item.price_cents,
        is_firearm: rental,
        is_serialized: rental,
        track_inventory: rental,
      },
      isoAt(context, -300 * DAY_MS),
    );
  }
  seedUnits(context);
}

function insertProduct(context: SeedContext, seed: ProductSeed, at: string): ProductRecord {
  return context.world.state.catalog.products.insert((id) => ({
    object: 'product',
    // Range catalog products keep the ids range records already point at.
    id: seed.id ?? id,
    sku: seed.sku,
    upc: seed.upc ?? null,
    name: seed.name,
    product_type: seed.product_type,
    price_cents: seed.price_cents,
    cost_cents: seed.cost_cents ?? Math.round(seed.price_cents * 0.6),
    map_price_cents: seed.map_price_cents ?? null,
    sale_price_cents: null,
    sale_starts_at: null,
    sale_ends_at: null,
    vendor_id: seed.vendor_id ?? null,
    vendor_sku: seed.vendor_sku ?? null,
    vendors: seed.vendor_id
      ? [{ vendor_id: seed.vendor_id, vendor_sku: seed.vendor_sku ?? null, preferred: true }]
      : [],
    reorder_qty: seed.reorder_qty ?? null,
    is_firearm: seed.is_firearm ?? false,
    is_serialized: seed.is_serialized ?? false,
    is_nfa: seed.is_nfa ?? false,
    track_inventory: seed.track_inventory ?? true,
    storefront: seed.storefront ?? null,
    created_at: at,
    updated_at: at,
  }));
}

function insertLevel(
  context: SeedContext,
  productId: number,
  locationId: number,
  onHand: number,
  index: number,
) {
  const reserved = 0;
  context.world.state.inventory.levels.insert((id) => ({
    id,
    location_id: locationId,
    level: {
      object: 'inventory_level',
      product_id: productId,
      location_id: locationId,
      qty_on_hand: onHand,
      qty_reserved: reserved,
      qty_available: onHand - reserved,
      reorder_point: productId % 3 === 0 ? 2 : 5,
      bin_location: `${locationId === 1 ? 'A' : 'N'}-${String(index + 1).padStart(2, '0')}`,
      updated_at: isoAt(context, -((productId * 7 + locationId * 3) % 20) * DAY_MS - DAY_MS),
    },
  }));
}

function seedUnits(context: SeedContext): void {
  const { inventory } = context.world.state;
  const received = isoAt(context, -45 * DAY_MS);
  for (const [productId, locationId, serial, status] of UNITS) {
    inventory.units.insert((id) => ({
      object: 'serialized_item',
      id,
      product_id: productId,
      location_id: locationId,
      serial_number: serial,
      status,
      updated_at: received,
    }));
  }
  for (const unit of RENTAL_UNITS) {
    inventory.units.insert(() => ({
      object: 'serialized_item',
      id: unit.id,
      product_id: unit.product_id,
      location_id: unit.location_id,
      serial_number: unit.serial_number,
      status: 'rental',
      updated_at: received,
    }));
  }
  // Firearm levels count their units: on hand = in stock + held, reserved = held.
  const pairs = new Set(UNITS.map(([productId, locationId]) => `${productId}:${locationId}`));
  for (const pair of pairs) {
    const [productId, locationId] = pair.split(':').map(Number) as [number, number];
    const units = inventory.units.filter(
      (unit) => unit.product_id === productId && unit.location_id === locationId,
    );
    const held = units.filter((unit) => unit.status === 'held').length;
    const onHand = units.filter((unit) => unit.status === 'in_stock').length + held;
    insertLevel(context, productId, locationId, onHand, productId - 1);
    const row = inventory.levels.all().at(-1)!;
    row.level.qty_reserved = held;
    row.level.qty_available = onHand - held;
  }
}
