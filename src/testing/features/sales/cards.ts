import { touch } from '../../state/stamps.js';
import type { DomainWorld } from '../world.js';
import type { CardTransactionRecord } from './cards-state.js';

/** An approved charge still unattached this long after approval is reversed (reference section 8). */
export const UNATTACHED_REVERSAL_MS = 10 * 60_000;
/**
 * How long the processor takes to confirm a reversal. Not shown in the reference: the sandbox keeps the
 * charge in reversing for a minute so both states can be observed.
 */
export const REVERSAL_CONFIRM_MS = 60_000;

/** What a new card transaction is made of; the caller has decided its outcome. */
export interface NewCardTransaction {
  readonly kind: CardTransactionRecord['kind'];
  readonly purpose: CardTransactionRecord['purpose'];
  readonly mode: CardTransactionRecord['mode'];
  readonly processor?: CardTransactionRecord['processor'];
  readonly status: CardTransactionRecord['status'];
  readonly amountCents: number;
  readonly card: { readonly brand: string; readonly last4: string } | null;
  readonly entryMethod: string | null;
  readonly message?: string | null;
  readonly parentId?: number | null;
  readonly orderId?: number | null;
  readonly accountPaymentId?: number | null;
  readonly membershipChargeId?: number | null;
  readonly customerId?: number | null;
  readonly locationId?: number | null;
  readonly registerId?: number | null;
  readonly attached?: boolean;
  /** When the attempt was made, in ms. */
  readonly at: number;
}

const SETTLED: readonly string[] = ['approved', 'declined', 'cancelled', 'failed', 'reversed', 'refunded'];

/** Stores one attempt at the processor. Approved and unattached: the 10-minute reversal is scheduled. */
export function insertCardTransaction(world: DomainWorld, input: NewCardTransaction): CardTransactionRecord {
  const at = new Date(input.at).toISOString();
  const approved = ['approved', 'reversing', 'reversed', 'refunded'].includes(input.status);
  const processor = input.processor ?? 'cardproc';
  const transaction = world.state.cards.transactions.insert((id) => ({
    object: 'card_transaction',
    id,
    kind: input.kind,
    purpose: input.purpose,
    mode: input.mode,
    processor,
    status: input.status,
    amount_cents: input.amountCents,
    approved_cents: approved ? input.amountCents : 0,
    refunded_cents: input.status === 'refunded' ? input.amountCents : 0,
    card_brand: input.card?.brand ?? null,
    card_last4: input.card?.last4 ?? null,
    entry_method: input.entryMethod,
    approval_code: approved ? world.random.hex(6).toUpperCase() : null,
    message: input.message ?? defaultMessage(input.status),
    processor_ref:
      input.status === 'pending'
        ? null
        : `${processor === 'cardproc' ? 'cp' : 'sim'}_${world.random.hex(20)}`,
    parent_id: input.parentId ?? null,
    order_id: input.orderId ?? null,
    account_payment_id: input.accountPaymentId ?? null,
    membership_charge_id: input.membershipChargeId ?? null,
    customer_id: input.customerId ?? null,
    location_id: input.locationId ?? null,
    register_id: input.registerId ?? null,
    attached: input.attached ?? false,
    created_at: at,
    completed_at: SETTLED.includes(input.status) || input.status === 'reversing' ? at : null,
    updated_at: at,
  }));
  if (transaction.kind === 'charge' && transaction.status === 'approved' && !transaction.attached) {
    scheduleUnattachedReversal(world, transaction);
  }
  return transaction;
}

function defaultMessage(status: CardTransactionRecord['status']): string | null {
  const messages: Record<string, string> = {
    approved: 'Approved',
    declined: 'Declined: insufficient funds',
    cancelled: 'Cancelled at the terminal',
    failed: 'Processor timeout',
  };
  return messages[status] ?? null;
}

/**
 * The automatic reversal of reference section 3: approved and still unattached 10 minutes after approval
 * goes to reversing, then reversed, so the customer is not charged for an unrecorded sale. A charge
 * attached in the meantime is left alone.
 */
function scheduleUnattachedReversal(world: DomainWorld, transaction: CardTransactionRecord): void {
  const approvedAt = Date.parse(transaction.completed_at ?? transaction.created_at);
  world.clock.schedule(approvedAt + UNATTACHED_REVERSAL_MS, () => {
    if (transaction.status !== 'approved' || transaction.attached) return;
    transaction.status = 'reversing';
    touch(transaction, approvedAt + UNATTACHED_REVERSAL_MS);
    world.clock.schedule(approvedAt + UNATTACHED_REVERSAL_MS + REVERSAL_CONFIRM_MS, () => {
      Object.assign(transaction, { status: 'reversed', message: 'Reversed: charge never attached' });
      touch(transaction, approvedAt + UNATTACHED_REVERSAL_MS + REVERSAL_CONFIRM_MS);
    });
  });
}
