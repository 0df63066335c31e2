import { dateOf } from '../../state/dates.js';
import { DAY_MS, isoAt, type SeedContext } from '../seed-context.js';
import { postReceiving } from './purchasing.js';
import type { PurchaseOrderLineRecord, PurchaseOrderRecord } from './state.js';

type PoSeed = Pick<PurchaseOrderRecord, 'vendor_id' | 'location_id' | 'status'> & {
  channel?: string;
  /** [product id, qty, qty received] */
  lines: readonly (readonly [number, number, number])[];
  daysAgo: number;
};

/**
 * Purchase orders in each state the API acts on, including the refusals (NOTHING_OUTSTANDING, EMPTY_PO,
 * DUPLICATE_PURCHASE_ORDER).
 */
const PURCHASE_ORDERS: readonly PoSeed[] = [
  {
    vendor_id: 1,
    location_id: 1,
    status: 'draft',
    lines: [
      [1, 40, 0],
      [4, 20, 0],
    ],
    daysAgo: 1,
  },
  {
    vendor_id: 2,
    location_id: 1,
    status: 'submitted',
    channel: 'CH-5001',
    lines: [
      [8, 2, 0],
      [7, 24, 0],
    ],
    daysAgo: 5,
  },
  { vendor_id: 2, location_id: 1, status: 'submitted', lines: [[9, 2, 0]], daysAgo: 4 },
  { vendor_id: 1, location_id: 2, status: 'draft', lines: [], daysAgo: 0 },
  {
    vendor_id: 1,
    location_id: 1,
    status: 'received',
    channel: 'CH-4990',
    lines: [
      [1, 24, 24],
      [5, 6, 6],
    ],
    daysAgo: 30,
  },
  { vendor_id: 1, location_id: 2, status: 'cancelled', lines: [[3, 4, 0]], daysAgo: 15 },
];

export function seedPurchasing(context: SeedContext): void {
  const { world } = context;
  const { purchasing, catalog } = world.state;
  for (const seed of PURCHASE_ORDERS) {
    const at = isoAt(context, -seed.daysAgo * DAY_MS);
    const lines: PurchaseOrderLineRecord[] = seed.lines.map(([productId, qty, received]) => {
      const product = catalog.products.get(productId)!;
      return {
        object: 'purchase_order_line',
        id: ++purchasing.lineIds.last,
        product_id: product.id,
        sku: product.sku,
        description: product.name,
        qty,
        qty_received: received,
        unit_cost_cents: product.cost_cents,
      };
    });
    const order = purchasing.purchaseOrders.insert((id) => ({
      object: 'purchase_order',
      id,
      number: `PO-${String(1000 + id)}`,
      vendor_id: seed.vendor_id,
      location_id: seed.location_id,
      channel_order_id: seed.channel ?? null,
      status: seed.status,
      lines,
      total_cost_cents: lines.reduce((total, line) => total + line.qty * line.unit_cost_cents, 0),
      note: null,
      ordered_on: dateOf(Date.parse(at)),
      expected_on: seed.status === 'submitted' ? dateOf(Date.parse(at) + 7 * DAY_MS) : null,
      submitted_at: seed.status === 'draft' ? null : at,
      cancelled_at: seed.status === 'cancelled' ? isoAt(context, -(seed.daysAgo - 1) * DAY_MS) : null,
      created_at: at,
      updated_at: at,
    }));
    if (seed.status === 'received') {
      postReceiving(
        world,
        order,
        'PS-77120',
        lines.map((line) => ({ line, qty: line.qty })),
        isoAt(context, -(seed.daysAgo - 3) * DAY_MS),
      );
    }
  }
}
