import { notFound } from '../../../errors.js';
import { requireWritableLocation } from '../../../http/access.js';
import { FieldReader, pathId } from '../../../http/fields.js';
import { routeFor } from '../../../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import { dateOf, isDate } from '../../../state/dates.js';
import { customerNamed } from '../../shop/customers.js';
import * as certificates from '../gift-certificates.js';
import type { GiftCertificateRecord } from '../promotions-state.js';

/** Certificates are value the whole shop honours, so they are not filtered by the key's locations. */
function certificateAt(context: RouteContext): GiftCertificateRecord {
  const row = context.sandbox.state.promotions.giftCertificates.get(
    pathId(context.params, 'gift certificate'),
  );
  if (!row) throw notFound('gift certificate');
  return row;
}

function issue(context: RouteContext) {
  const { sandbox } = context;
  const reader = FieldReader.body(context.body);
  const amountCents = reader.integer('amount_cents', { required: true, min: 1 });
  const code = reader.string('code');
  const customerId = reader.integer('customer_id') ?? null;
  const locationId = reader.integer('location_id') ?? null;
  const expiresOn = reader.string('expires_on') ?? null;
  const note = reader.string('note') ?? null;
  if (customerId !== null) customerNamed(sandbox, customerId, reader);
  if (expiresOn !== null && !isDate(expiresOn)) reader.fail('expires_on', 'must be a date, YYYY-MM-DD');
  else if (expiresOn !== null && expiresOn < dateOf(sandbox.clock.nowMs())) {
    reader.fail('expires_on', 'must not be in the past');
  }
  reader.done();
  if (locationId !== null) requireWritableLocation(context, locationId);
  const certificate = certificates.issueGiftCertificate(sandbox, {
    amountCents: amountCents!,
    code,
    customerId,
    locationId,
    expiresOn,
    note,
  });
  return created({ ...certificate });
}

type Move = (
  world: RouteContext['sandbox'],
  certificate: GiftCertificateRecord,
  amountCents: number,
  note: string | null,
) => GiftCertificateRecord;

/** redeem, reload (amount_cents at least 1) and adjust (a signed amount_cents, not 0). */
function balanceMove(move: Move, signed = false) {
  return (context: RouteContext) => {
    const reader = FieldReader.body(context.body);
    const amountCents = reader.integer(
      'amount_cents',
      signed ? { required: true } : { required: true, min: 1 },
    );
    const note = reader.string('note') ?? null;
    if (amountCents === 0) reader.fail('amount_cents', 'must not be 0');
    reader.done();
    return ok({ ...move(context.sandbox, certificateAt(context), amountCents!, note) });
  };
}

function statusChange(
  change: (world: RouteContext['sandbox'], row: GiftCertificateRecord) => GiftCertificateRecord,
) {
  return (context: RouteContext) => ok({ ...change(context.sandbox, certificateAt(context)) });
}

/**
 * Gift certificates (named only in the reference: the paths follow spec/openapi.yaml, the fields
 * amount_cents, code, customer_id, location_id, expires_on and note are the sandbox's own). Balance moves
 * require an Idempotency-Key.
 */
export const giftCertificateRoutes: readonly RouteDefinition[] = [
  {
    ...routeFor('giftCertificates.issue'),
    handle: issue,
  },
  {
    ...routeFor('giftCertificates.redeem'),
    handle: balanceMove(certificates.redeem),
  },
  {
    ...routeFor('giftCertificates.reload'),
    handle: balanceMove(certificates.reload),
  },
  {
    ...routeFor('giftCertificates.adjust'),
    handle: balanceMove(certificates.adjust, true),
  },
  {
    ...routeFor('giftCertificates.reverse'),
    handle: (context) => {
      const reader = FieldReader.body(context.body);
      const note = reader.string('note') ?? null;
      reader.done();
      return ok({ ...certificates.reverse(context.sandbox, certificateAt(context), note) });
    },
  },
  { ...routeFor('giftCertificates.disable'), handle: statusChange(certificates.disable) },
  { ...routeFor('giftCertificates.enable'), handle: statusChange(certificates.enable) },
];
