import { receivePayment, renderAccount } from '../domain/accounts.js';
import { notFound } from '../errors.js';
import { canSeeLocation, findVisible } from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import { hasPermission } from '../http/keys.js';
import { paginate, readPageParams } from '../http/pagination.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../http/route.js';

/** The house account of the path's customer; 404 when the customer or its account does not exist. */
function accountAt(context: RouteContext) {
  const customerId = pathId(context.params, 'customer');
  const account = context.sandbox.state.accounts.houseAccounts.get(customerId);
  if (!account || !context.sandbox.state.shop.customers.get(customerId)) throw notFound('house account');
  return account;
}

/**
 * House accounts, invoices and account payments. The reference names these endpoints only: their
 * shapes, filters beyond limit and cursor, and the accounts permission of the reads are the sandbox's.
 */
export const accountRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/v1/customers/{id}/account',
    permission: 'accounts:read',
    handle: (context) => ok(renderAccount(context.sandbox, accountAt(context))),
  },
  {
    method: 'POST',
    path: '/v1/customers/{id}/account/payments',
    permission: 'accounts:write',
    idempotency: 'required',
    handle: (context) => {
      const reader = FieldReader.body(context.body);
      const amountCents = reader.integer('amount_cents', { required: true, min: 1 });
      const tender = reader.string('tender') ?? 'other';
      const reference = reader.string('reference') ?? null;
      const note = reader.string('note') ?? null;
      reader.done();
      const account = accountAt(context);
      const mayCredit = hasPermission(context.key, 'store_credit:write');
      const payment = receivePayment(
        context.sandbox,
        account.customer_id,
        { amountCents: amountCents!, tender, reference, note },
        mayCredit,
      );
      return created({ ...payment, applied: payment.applied.map((entry) => ({ ...entry })) });
    },
  },
  {
    method: 'GET',
    path: '/v1/invoices',
    permission: 'accounts:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const page = readPageParams(reader);
      reader.done();
      const rows = sandbox.state.accounts.invoices.filter((row) => canSeeLocation(key, row.location_id));
      return paginate(rows, page, (row) => row.id);
    },
  },
  {
    method: 'GET',
    path: '/v1/invoices/{id}',
    permission: 'accounts:read',
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
  {
    method: 'GET',
    path: '/v1/account-payments',
    permission: 'accounts:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const page = readPageParams(reader);
      reader.done();
      const rows = sandbox.state.accounts.payments.filter((row) => canSeeLocation(key, row.location_id));
      return paginate(
        rows,
        page,
        (row) => row.id,
        (row) => ({ ...row, applied: row.applied.map((entry) => ({ ...entry })) }),
      );
    },
  },
];
