import { type CatalogState, createCatalogState } from '../features/inventory/catalog-state.js';
import { createInventoryState, type InventoryState } from '../features/inventory/state.js';
import { createMembershipState, type MembershipState } from '../features/memberships/state.js';
import { createPurchasingState, type PurchasingState } from '../features/purchasing/state.js';
import { createRangeState, type RangeState } from '../features/range/state.js';
import { createReturnState, type ReturnState } from '../features/returns/state.js';
import { type AccountState, createAccountState } from '../features/sales/accounts-state.js';
import { type CardState, createCardState } from '../features/sales/cards-state.js';
import { createOrderState, type OrderState } from '../features/sales/orders-state.js';
import { createPromotionState, type PromotionState } from '../features/sales/promotions-state.js';
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
