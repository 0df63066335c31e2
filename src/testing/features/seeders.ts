import { seedMemberships } from './memberships/seed.js';
import { seedRange } from './range/seed.js';
import { seedRentals } from './range/seed-rentals.js';
import { seedRetail } from './sales/seed-retail.js';
import type { SeedContext, Seeder } from './seed-context.js';
import { seedShop } from './shop/seed.js';
import type { DomainWorld } from './world.js';

/**
 * The seeders, in order. A new domain adds its seeder here; `seedShop` runs first because every other
 * record points at its locations and customers. Catalog products other seeders refer to (class products,
 * rental guns) are listed in seed-catalog.ts so the products seeder can create the matching records.
 */
export const SEEDERS: readonly Seeder[] = [seedShop, seedRange, seedRentals, seedRetail, seedMemberships];

/** Runs every seeder against a fresh world. */
export function seedShopState(world: DomainWorld): void {
  const context: SeedContext = { world, nowMs: world.clock.nowMs() };
  for (const seeder of SEEDERS) seeder(context);
}
