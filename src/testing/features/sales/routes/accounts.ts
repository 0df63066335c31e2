import { findVisible } from '../../../http/access.js';
import { pathId } from '../../../http/fields.js';
import { hasPermission } from '../../../http/keys.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute } from '../../../http/rules.js';
import { houseAccountOf, receivePayment, renderAccount } from '../accounts.js';
import type { AccountPaymentRecord, InvoiceRecord } from '../accounts-state.js';
import { AMOUNT_CENTS } from './amounts.js';

/** The house account of the path's customer (`houseAccountOf`). */
function accountAt(context: RouteContext) {
  return houseAccountOf(context.sandbox, pathId(context.params, 'customer'));
}

/**
 * House accounts, invoices and account payments. The reference names these endpoints only: their
 * shapes, filters beyond limit and cursor, and the accounts permission of the reads are the sandbox's.
 */
export const accountRoutes: readonly RouteDefinition[] = [
  {
    ...routeFor('customers.account.retrieve'),
    handle: (context) => ok(renderAccount(context.sandbox, accountAt(context))),
  },
  bodyRoute(
    'customers.account.payments.create',
    // The reference names the endpoint only: these fields are the sandbox's own.
    {
      amount_cents: AMOUNT_CENTS,
      tender: { type: 'string' },
      reference: { type: 'string' },
      note: { type: 'string' },
    },
    (context, body, fields) => {
      fields.done();
      const account = accountAt(context);
      const mayCredit = hasPermission(context.key, 'store_credit:write');
      const payment = receivePayment(
        context.sandbox,
        account.customer_id,
        {
          amountCents: body.amount_cents!,
          tender: body.tender ?? 'other',
          reference: body.reference ?? null,
          note: body.note ?? null,
        },
        mayCredit,
      );
      return created({ ...payment, applied: payment.applied.map((entry) => ({ ...entry })) });
    },
  ),
  listRoute<InvoiceRecord>('invoices.list', {
    rows: (sandbox) => sandbox.state.accounts.invoices,
    location: (row) => row.location_id,
  }),
  {
    ...routeFor('invoices.retrieve'),
    handle: (context) =>
      ok({
        ...findVisible(
          context,
          context.sandbox.state.accounts.invoices,
          pathId(context.params, 'invoice'),
          'invoice',
        ),
      }),
  },
  listRoute<AccountPaymentRecord>('accountPayments.list', {
    rows: (sandbox) => sandbox.state.accounts.payments,
    location: (row) => row.location_id,
    render: (row) => ({ ...row, applied: row.applied.map((entry) => ({ ...entry })) }),
  }),
];
