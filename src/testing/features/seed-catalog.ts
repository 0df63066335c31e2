/**
 * Catalog products that range records point at (a class's product_id, a rental gun's product_id and
 * serialized_item_id). The products seeder creates product records with these ids and values, so the
 * range and the catalog agree; range seeders use only the ids.
 */
export interface CatalogProduct {
  readonly id: number;
  readonly sku: string;
  readonly name: string;
  readonly price_cents: number;
  readonly kind: 'class' | 'rental_gun' | 'range_fee';
  /** Rental guns only. */
  readonly caliber?: string;
  readonly firearm_type?: string;
  readonly min_age?: number;
}

/** A serialized unit of a rental-gun product: one physical gun on the rental wall. */
export interface CatalogSerializedItem {
  readonly id: number;
  readonly product_id: number;
  readonly serial_number: string;
  readonly location_id: number;
}

export const CLASS_PRODUCTS = {
  introHandgun: 9001,
  concealedCarry: 9002,
  youthRifle: 9003,
  defensivePistol: 9004,
} as const;

export const RENTAL_PRODUCTS = {
  glock19: 9101,
  mp9: 9102,
  ruger1022: 9103,
  ar15: 9104,
  remington870: 9105,
} as const;

/** The product that rings up lane overtime at the register. */
export const LANE_OVERTIME_PRODUCT = 9201;

export const RANGE_CATALOG: readonly CatalogProduct[] = [
  { id: 9001, sku: 'CLS-INTRO-HG', name: 'Intro to Handguns', price_cents: 7500, kind: 'class' },
  { id: 9002, sku: 'CLS-CCW', name: 'Concealed Carry Permit Course', price_cents: 12_500, kind: 'class' },
  { id: 9003, sku: 'CLS-YOUTH-RF', name: 'Youth Rifle Safety', price_cents: 4500, kind: 'class' },
  { id: 9004, sku: 'CLS-DEF-PIS2', name: 'Defensive Pistol II', price_cents: 15_000, kind: 'class' },
  {
    id: 9101,
    sku: 'RNT-G19',
    name: 'Glock 19 Gen5',
    price_cents: 1500,
    kind: 'rental_gun',
    caliber: '9mm',
    firearm_type: 'pistol',
    min_age: 21,
  },
  {
    id: 9102,
    sku: 'RNT-MP9',
    name: 'Smith & Wesson M&P9 2.0',
    price_cents: 1500,
    kind: 'rental_gun',
    caliber: '9mm',
    firearm_type: 'pistol',
    min_age: 21,
  },
  {
    id: 9103,
    sku: 'RNT-1022',
    name: 'Ruger 10/22 Carbine',
    price_cents: 1000,
    kind: 'rental_gun',
    caliber: '.22 LR',
    firearm_type: 'rifle',
    min_age: 18,
  },
  {
    id: 9104,
    sku: 'RNT-AR15',
    name: 'Daniel Defense DDM4 V7',
    price_cents: 2500,
    kind: 'rental_gun',
    caliber: '5.56 NATO',
    firearm_type: 'rifle',
    min_age: 18,
  },
  {
    id: 9105,
    sku: 'RNT-870',
    name: 'Remington 870 Express',
    price_cents: 2000,
    kind: 'rental_gun',
    caliber: '12 gauge',
    firearm_type: 'shotgun',
    min_age: 18,
  },
  { id: 9201, sku: 'RNG-OVERTIME', name: 'Lane overtime', price_cents: 500, kind: 'range_fee' },
];

/** The guns on the rental walls: [serialized item id, product id, serial number, location id]. */
export const RENTAL_UNITS: readonly CatalogSerializedItem[] = [
  { id: 9501, product_id: 9101, serial_number: 'BXRT417', location_id: 1 },
  { id: 9502, product_id: 9101, serial_number: 'BXRT552', location_id: 1 },
  { id: 9503, product_id: 9102, serial_number: 'NJK8821', location_id: 1 },
  { id: 9504, product_id: 9103, serial_number: '0012-84571', location_id: 1 },
  { id: 9505, product_id: 9104, serial_number: 'DDM4-107733', location_id: 1 },
  { id: 9506, product_id: 9105, serial_number: 'RS90210K', location_id: 1 },
  { id: 9507, product_id: 9101, serial_number: 'BXRT998', location_id: 1 },
  { id: 9508, product_id: 9101, serial_number: 'BYAC120', location_id: 2 },
  { id: 9509, product_id: 9103, serial_number: '0012-90112', location_id: 2 },
  { id: 9510, product_id: 9102, serial_number: 'NJK9034', location_id: 2 },
];

export function catalogProduct(id: number): CatalogProduct {
  const product = RANGE_CATALOG.find((candidate) => candidate.id === id);
  if (!product) throw new Error(`seed catalog has no product ${id}`);
  return product;
}
