import { REQUEST_BODIES } from '../../../generated/request-rules.js';
import { apiError, invalidState, type SandboxApiError, validationError } from '../../errors.js';
import { addDays, dateOf, startOfDate } from '../../state/dates.js';
import { touch } from '../../state/stamps.js';
import type { DomainWorld } from '../world.js';
import type { GiftCertificateMove, GiftCertificateRecord } from './promotions-state.js';

/** A requested certificate code: 6 to 40 letters, digits or dashes (the spec's pattern, refused with 422). */
export const GIFT_CERTIFICATE_CODE = new RegExp(REQUEST_BODIES['giftCertificates.issue'].code.pattern);

/** What POST /v1/gift-certificates issues (fields beyond code are the sandbox's own). */
export interface NewGiftCertificate {
  readonly amountCents: number;
  readonly code: string | undefined;
  readonly customerId: number | null;
  readonly locationId: number | null;
  readonly expiresOn: string | null;
  readonly note: string | null;
}

function codeTaken(world: DomainWorld, code: string): boolean {
  const wanted = code.toUpperCase();
  return (
    world.state.promotions.giftCertificates.find((row) => row.code.toUpperCase() === wanted) !== undefined
  );
}

/** Issues a certificate (gift_certificate.issued): 422 GIFT_CERTIFICATE_CODE_INVALID, 409 ..._CODE_TAKEN. */
export function issueGiftCertificate(world: DomainWorld, input: NewGiftCertificate): GiftCertificateRecord {
  if (input.code !== undefined && !GIFT_CERTIFICATE_CODE.test(input.code)) {
    throw apiError('GIFT_CERTIFICATE_CODE_INVALID', 'A code is 6 to 40 letters, digits or dashes', {
      code: input.code,
    });
  }
  if (input.code !== undefined && codeTaken(world, input.code)) {
    throw apiError('GIFT_CERTIFICATE_CODE_TAKEN', `The code ${input.code} is in use`);
  }
  let code = input.code;
  while (code === undefined || codeTaken(world, code)) {
    const hex = world.random.hex(12).toUpperCase();
    code = `GC-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8)}`;
  }
  const now = world.clock.iso();
  const certificate = world.state.promotions.giftCertificates.insert((id) => ({
    object: 'gift_certificate',
    id,
    code: code!,
    status: 'active',
    initial_balance_cents: input.amountCents,
    balance_cents: input.amountCents,
    customer_id: input.customerId,
    location_id: input.locationId,
    expires_on: input.expiresOn,
    created_at: now,
    updated_at: now,
  }));
  addMove(world, certificate, 'issued', input.amountCents, input.note);
  scheduleExpiry(world, certificate);
  world.events.record('gift_certificate.issued', certificate);
  return certificate;
}

/** On the day after expires_on an active or depleted certificate expires (gift_certificate.updated). */
export function scheduleExpiry(world: DomainWorld, certificate: GiftCertificateRecord): void {
  if (certificate.expires_on === null) return;
  const at = startOfDate(addDays(certificate.expires_on, 1));
  world.clock.schedule(at, () => {
    if (certificate.status !== 'active' && certificate.status !== 'depleted') return;
    certificate.status = 'expired';
    touch(certificate, at);
    world.events.record('gift_certificate.updated', certificate);
  });
}

function addMove(
  world: DomainWorld,
  certificate: GiftCertificateRecord,
  kind: GiftCertificateMove['kind'],
  amountCents: number,
  note: string | null,
): void {
  world.state.promotions.giftCertificateMoves.insert((id) => ({
    id,
    certificate_id: certificate.id,
    kind,
    amount_cents: amountCents,
    reversed: false,
    note,
    created_at: world.clock.iso(),
  }));
}

function inactive(certificate: GiftCertificateRecord): SandboxApiError {
  return apiError('GIFT_CERTIFICATE_INACTIVE', `This certificate is ${certificate.status}`, {
    status: certificate.status,
  });
}

/** Applies a signed balance change: depleted at zero, active again above it. */
function changeBalance(
  world: DomainWorld,
  certificate: GiftCertificateRecord,
  kind: GiftCertificateMove['kind'],
  delta: number,
  note: string | null,
): GiftCertificateRecord {
  certificate.balance_cents += delta;
  if (certificate.status === 'active' && certificate.balance_cents === 0) certificate.status = 'depleted';
  else if (certificate.status === 'depleted' && certificate.balance_cents > 0) certificate.status = 'active';
  touch(certificate, world.clock.nowMs());
  addMove(world, certificate, kind, delta, note);
  world.events.record('gift_certificate.updated', certificate);
  return certificate;
}

/** Spends from the balance: 422 GIFT_CERTIFICATE_INACTIVE (details.status) or ..._INSUFFICIENT. */
export function redeem(
  world: DomainWorld,
  certificate: GiftCertificateRecord,
  amountCents: number,
  note: string | null,
) {
  if (certificate.status !== 'active') throw inactive(certificate);
  if (certificate.balance_cents < amountCents) {
    throw apiError('GIFT_CERTIFICATE_INSUFFICIENT', 'The balance is too low', {
      balance_cents: certificate.balance_cents,
    });
  }
  return changeBalance(world, certificate, 'redeemed', -amountCents, note);
}

/** Adds value; a depleted certificate becomes active, a disabled or expired one is 422 INACTIVE. */
export function reload(
  world: DomainWorld,
  certificate: GiftCertificateRecord,
  amountCents: number,
  note: string | null,
) {
  if (certificate.status === 'disabled' || certificate.status === 'expired') throw inactive(certificate);
  return changeBalance(world, certificate, 'reloaded', amountCents, note);
}

/** A correction by a signed amount; the balance may not go below zero (400 VALIDATION_ERROR). */
export function adjust(
  world: DomainWorld,
  certificate: GiftCertificateRecord,
  deltaCents: number,
  note: string | null,
) {
  if (certificate.balance_cents + deltaCents < 0) {
    throw validationError({
      amount_cents: [`would take the balance of ${certificate.balance_cents} below zero`],
    });
  }
  return changeBalance(world, certificate, 'adjusted', deltaCents, note);
}

/**
 * Undoes the most recent redeem, reload or adjust not yet reversed (the reference names the verb only;
 * which move it undoes is the sandbox's reading). Nothing to undo is 409 INVALID_STATE.
 */
export function reverse(world: DomainWorld, certificate: GiftCertificateRecord, note: string | null) {
  const move = world.state.promotions.giftCertificateMoves
    .filter(
      (row) =>
        row.certificate_id === certificate.id &&
        !row.reversed &&
        row.kind !== 'issued' &&
        row.kind !== 'reversed',
    )
    .sort((a, b) => b.id - a.id)[0];
  if (!move) {
    throw apiError('INVALID_STATE', 'This certificate has no balance move left to reverse', {
      status: certificate.status,
    });
  }
  if (certificate.balance_cents - move.amount_cents < 0) {
    throw apiError('GIFT_CERTIFICATE_INSUFFICIENT', 'The balance is too low to reverse that move', {
      balance_cents: certificate.balance_cents,
    });
  }
  move.reversed = true;
  return changeBalance(world, certificate, 'reversed', -move.amount_cents, note);
}

/** Any status but disabled -> disabled. */
export function disable(world: DomainWorld, certificate: GiftCertificateRecord): GiftCertificateRecord {
  if (certificate.status === 'disabled') throw invalidState('gift certificate', 'disabled', 'disabled');
  certificate.status = 'disabled';
  touch(certificate, world.clock.nowMs());
  world.events.record('gift_certificate.updated', certificate);
  return certificate;
}

/** disabled -> expired (past expires_on), depleted (no balance) or active. */
export function enable(world: DomainWorld, certificate: GiftCertificateRecord): GiftCertificateRecord {
  if (certificate.status !== 'disabled')
    throw invalidState('gift certificate', certificate.status, 'enabled');
  const today = dateOf(world.clock.nowMs());
  const expired = certificate.expires_on !== null && certificate.expires_on < today;
  const status = expired ? 'expired' : certificate.balance_cents === 0 ? 'depleted' : 'active';
  certificate.status = status;
  touch(certificate, world.clock.nowMs());
  world.events.record('gift_certificate.updated', certificate);
  return certificate;
}
