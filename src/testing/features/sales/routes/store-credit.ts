import { pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute } from '../../../http/rules.js';
import { customerAt } from '../../shop/customers.js';
import { moveCredit, renderStoreCredit } from '../accounts.js';
import { AMOUNT_CENTS } from './amounts.js';

function customerOf(context: RouteContext): number {
  return customerAt(context.sandbox, pathId(context.params, 'customer')).id;
}

/** issue and redeem: a balance move of amount_cents (required Idempotency-Key, store_credit.changed). */
function move(
  operationId: 'customers.storeCredit.issue' | 'customers.storeCredit.redeem',
  kind: 'issued' | 'spent',
) {
  return bodyRoute(
    operationId,
    { amount_cents: AMOUNT_CENTS, note: { type: 'string' } },
    (context, body, fields) => {
      fields.done();
      const customerId = customerOf(context);
      const amount = body.amount_cents!;
      moveCredit(context.sandbox, customerId, kind, kind === 'spent' ? -amount : amount, body.note ?? null);
      return ok(renderStoreCredit(context.sandbox, customerId));
    },
  );
}

/**
 * Store credit (named only in the reference: the request fields amount_cents and note and every
 * response shape beyond customer_id, balance_cents and the latest entry are the sandbox's own).
 */
export const storeCreditRoutes: readonly RouteDefinition[] = [
  {
    ...routeFor('customers.storeCredit.retrieve'),
    handle: (context) => ok(renderStoreCredit(context.sandbox, customerOf(context))),
  },
  move('customers.storeCredit.issue', 'issued'),
  move('customers.storeCredit.redeem', 'spent'),
  listRoute<{ id: number }>('storeCredit.list', {
    // One record per customer who ever had store credit, ordered by customer id.
    rows: (sandbox) =>
      [...new Set(sandbox.state.accounts.creditEntries.all().map((entry) => entry.customer_id))]
        .sort((a, b) => a - b)
        .map((id) => ({ id })),
    render: ({ id }, { sandbox }) => renderStoreCredit(sandbox, id),
  }),
];
