import { createShopState, type ShopSettings, type ShopState } from '../state/shop.js';
import { type CatalogState, createCatalogState } from './inventory/catalog-state.js';
import { createInventoryState, type InventoryState } from './inventory/state.js';
import { createMembershipState, type MembershipState } from './memberships/state.js';
import { createPurchasingState, type PurchasingState } from './purchasing/state.js';
import { createRangeState, type RangeState } from './range/state.js';
import { createReturnState, type ReturnState } from './returns/state.js';
import { type AccountState, createAccountState } from './sales/accounts-state.js';
import { type CardState, createCardState } from './sales/cards-state.js';
import { createOrderState, type OrderState } from './sales/orders-state.js';
import { createPromotionState, type PromotionState } from './sales/promotions-state.js';

/**
 * Everything the simulated shop holds, one field per domain. A new feature adds its
 * `features/<feature>/state.ts` (record types + `create<Feature>State()`) and one line here.
 */
export interface SandboxState {
  shop: ShopState;
  range: RangeState;
  orders: OrderState;
  memberships: MembershipState;
  cards: CardState;
  returns: ReturnState;
  catalog: CatalogState;
  inventory: InventoryState;
  purchasing: PurchasingState;
  accounts: AccountState;
  promotions: PromotionState;
}

export function createState(settings: ShopSettings): SandboxState {
  return {
    shop: createShopState(settings),
    range: createRangeState(),
    orders: createOrderState(),
    memberships: createMembershipState(),
    cards: createCardState(),
    returns: createReturnState(),
    catalog: createCatalogState(),
    inventory: createInventoryState(),
    purchasing: createPurchasingState(),
    accounts: createAccountState(),
    promotions: createPromotionState(),
  };
}
