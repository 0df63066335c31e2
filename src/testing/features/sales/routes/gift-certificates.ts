import { notFound } from '../../../errors.js';
import { requireWritableLocation } from '../../../http/access.js';
import { pathId } from '../../../http/fields.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute } from '../../../http/rules.js';
import { dateOf } from '../../../state/dates.js';
import { customerNamed } from '../../shop/customers.js';
import * as certificates from '../gift-certificates.js';
import type { GiftCertificateRecord } from '../promotions-state.js';
import { AMOUNT_CENTS } from './amounts.js';

/** Certificates are value the whole shop honours, so they are not filtered by the key's locations. */
function certificateAt(context: RouteContext): GiftCertificateRecord {
  const row = context.sandbox.state.promotions.giftCertificates.get(
    pathId(context.params, 'gift certificate'),
  );
  if (!row) throw notFound('gift certificate');
  return row;
}

/**
 * The reference names the certificate endpoints only; spec/openapi.yaml shows the code's form. The other
 * fields are the sandbox's own: an amount of at least a cent, a customer, a location, an expiry date and a note.
 */
const issue = bodyRoute(
  'giftCertificates.issue',
  {
    amount_cents: AMOUNT_CENTS,
    customer_id: { type: 'integer' },
    location_id: { type: 'integer' },
    expires_on: { type: 'string', format: 'date' },
    note: { type: 'string' },
  },
  (context, body, fields) => {
    const { sandbox } = context;
    const {
      customer_id: customerId = null,
      location_id: locationId = null,
      expires_on: expiresOn = null,
    } = body;
    if (customerId !== null) customerNamed(sandbox, customerId, fields);
    if (expiresOn !== null && expiresOn < dateOf(sandbox.clock.nowMs())) {
      fields.fail('expires_on', 'must not be in the past');
    }
    fields.done();
    if (locationId !== null) requireWritableLocation(context, locationId);
    const certificate = certificates.issueGiftCertificate(sandbox, {
      amountCents: body.amount_cents!,
      code: body.code,
      customerId,
      locationId,
      expiresOn,
      note: body.note ?? null,
    });
    return created({ ...certificate });
  },
);

type Move = (
  world: RouteContext['sandbox'],
  certificate: GiftCertificateRecord,
  amountCents: number,
  note: string | null,
) => GiftCertificateRecord;

const SIGNED = { type: 'integer', required: true } as const;

/** redeem and reload move a positive amount_cents; adjust a signed one, not 0 (the sandbox's fields). */
function balanceMove(
  operationId: 'giftCertificates.redeem' | 'giftCertificates.reload' | 'giftCertificates.adjust',
  move: Move,
  amount: typeof AMOUNT_CENTS | typeof SIGNED = AMOUNT_CENTS,
): RouteDefinition {
  return bodyRoute(
    operationId,
    { amount_cents: amount, note: { type: 'string' } },
    (context, body, fields) => {
      if (body.amount_cents === 0) fields.fail('amount_cents', 'must not be 0');
      fields.done();
      return ok({ ...move(context.sandbox, certificateAt(context), body.amount_cents!, body.note ?? null) });
    },
  );
}

/** disable and enable: the spec shows no body fields, and the sandbox takes none. */
function statusChange(
  operationId: 'giftCertificates.disable' | 'giftCertificates.enable',
  change: (world: RouteContext['sandbox'], row: GiftCertificateRecord) => GiftCertificateRecord,
): RouteDefinition {
  return bodyRoute(operationId, {}, (context, _body, fields) => {
    fields.done();
    return ok({ ...change(context.sandbox, certificateAt(context)) });
  });
}

/**
 * Gift certificates (named only in the reference: the paths and the code's form follow spec/openapi.yaml, the
 * other fields are the sandbox's own). Balance moves require an Idempotency-Key.
 */
export const giftCertificateRoutes: readonly RouteDefinition[] = [
  issue,
  balanceMove('giftCertificates.redeem', certificates.redeem),
  balanceMove('giftCertificates.reload', certificates.reload),
  balanceMove('giftCertificates.adjust', certificates.adjust, SIGNED),
  bodyRoute('giftCertificates.reverse', { note: { type: 'string' } }, (context, body, fields) => {
    fields.done();
    return ok({ ...certificates.reverse(context.sandbox, certificateAt(context), body.note ?? null) });
  }),
  statusChange('giftCertificates.disable', certificates.disable),
  statusChange('giftCertificates.enable', certificates.enable),
];
