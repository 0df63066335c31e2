import { createOrderState, type OrderState } from './orders.js';
import { createRangeState, type RangeState } from './range.js';
import { createShopState, type ShopSettings, type ShopState } from './shop.js';

/**
 * Everything the simulated shop holds, one field per domain. A new domain adds its own
 * `state/<domain>.ts` (record types + `create<Domain>State()`) and one line here.
 */
export interface SandboxState {
  shop: ShopState;
  range: RangeState;
  orders: OrderState;
}

export function createState(settings: ShopSettings): SandboxState {
  return { shop: createShopState(settings), range: createRangeState(), orders: createOrderState() };
}
