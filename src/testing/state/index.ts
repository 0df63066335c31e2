import { type AccountState, createAccountState } from './accounts.js';
import { type CardState, createCardState } from './cards.js';
import { type CatalogState, createCatalogState } from './catalog.js';
import { createInventoryState, type InventoryState } from './inventory.js';
import { createMembershipState, type MembershipState } from './memberships.js';
import { createOrderState, type OrderState } from './orders.js';
import { createPromotionState, type PromotionState } from './promotions.js';
import { createPurchasingState, type PurchasingState } from './purchasing.js';
import { createRangeState, type RangeState } from './range.js';
import { createReturnState, type ReturnState } from './returns.js';
import { createShopState, type ShopSettings, type ShopState } from './shop.js';

/**
 * Everything the simulated shop holds, one field per domain. A new domain adds its own
 * `state/<domain>.ts` (record types + `create<Domain>State()`) and one line here.
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
