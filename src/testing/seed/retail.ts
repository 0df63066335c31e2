import { seedAccounts } from './accounts.js';
import { seedCardTransactions } from './cards.js';
import type { SeedContext } from './context.js';
import { seedProducts } from './products.js';
import { seedPromotions } from './promotions.js';
import { seedPurchasing } from './purchasing.js';
import { seedSales } from './sales.js';

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
