import { seedProducts } from '../inventory/seed.js';
import { seedPurchasing } from '../purchasing/seed.js';
import type { SeedContext } from '../seed-context.js';
import { seedSales } from './seed.js';
import { seedAccounts } from './seed-accounts.js';
import { seedCardTransactions } from './seed-cards.js';
import { seedPromotions } from './seed-promotions.js';

/**
 * The shop's retail side, in dependency order: vendors and products with stock, purchase orders,
 * orders and returns, the card transactions behind them, house accounts and store credit, gift
 * certificates and coupons.
 */
export function seedRetail(context: SeedContext): void {
  seedProducts(context);
  seedPurchasing(context);
  const orders = seedSales(context);
  seedCardTransactions(context, orders);
  seedAccounts(context);
  seedPromotions(context);
}
