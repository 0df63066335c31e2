import { SandboxUsageError } from '../errors.js';
import { chargeSavedCardNow, payAtRegister } from '../features/memberships/billing.js';
import type { MembershipRecord } from '../features/memberships/state.js';
import { type CloseVisitOptions, closeVisit } from '../features/range/register.js';
import * as rentals from '../features/range/rentals.js';
import type { RangeRentalRecord, RangeReservationRecord } from '../features/range/state.js';
import { type ReturnSaleOptions, returnSale } from '../features/returns/returns.js';
import type { ReturnRecord } from '../features/returns/state.js';
import type { OrderRecord } from '../features/sales/orders-state.js';
import { type SellOptions, sell } from '../features/sales/register.js';
import {
  addCustomer,
  type CustomerChanges,
  deleteCustomer,
  type NewCustomer,
  updateCustomer,
} from '../features/shop/customers.js';
import type { DomainWorld } from '../features/world.js';
import type { CustomerRecord } from '../state/shop.js';

/**
 * Register-side actions: what staff do at the counter and the API cannot (reference section 1, rule 4).
 * Each one changes the shop and fires the events the real register would. Each domain keeps its actions
 * in its own file here (range.ts, ...) and adds a one-line method below.
 */
export class SandboxRegister {
  /** @internal */
  constructor(/** @internal */ protected readonly world: DomainWorld) {}

  /**
   * Ends a checked-in visit: every gun still out on it comes back (range.rental.checked_in; Good unless
   * `rentals` says otherwise), any overtime is rung up (sale.completed), then range.reservation.completed.
   */
  closeVisit(reservationId: number, options: CloseVisitOptions = {}): RangeReservationRecord {
    this.requireRange('closeVisit');
    return structuredClone(closeVisit(this.world, reservationId, options));
  }

  /** Hands a gun over the counter: range.rental.checked_out. */
  rentOut(
    rentalId: number,
    options: { customerId: number; reservationId?: number | null; condition?: string },
  ): RangeRentalRecord {
    this.requireRange('rentOut');
    return structuredClone(rentals.rentOut(this.world, rentalId, options));
  }

  /**
   * Takes a gun back: range.rental.checked_in (with last_checkout), and for `Needs cleaning` or `Damaged`
   * (optionally `Damaged: note`) the gun goes to maintenance with range.rental.out_of_service.
   */
  returnRental(
    rentalId: number,
    options: { condition?: string; roundsFired?: number | null } = {},
  ): RangeRentalRecord {
    this.requireRange('returnRental');
    return structuredClone(rentals.returnRental(this.world, rentalId, options));
  }

  /** Takes an available gun off the wall: range.rental.out_of_service. */
  takeOutOfService(rentalId: number, reason: string): RangeRentalRecord {
    this.requireRange('takeOutOfService');
    return structuredClone(rentals.takeOutOfService(this.world, rentalId, reason));
  }

  /** Puts a gun in maintenance back on the wall: range.rental.returned_to_service. */
  returnToService(rentalId: number): RangeRentalRecord {
    this.requireRange('returnToService');
    return structuredClone(rentals.returnToService(this.world, rentalId));
  }

  /**
   * Rings up a completed sale of catalog products: sale.completed, then inventory.changed per tracked
   * line, so stock moves from outside the API. Firearms arrive as awaiting_transfer with the unit held.
   */
  sell(options: SellOptions): OrderRecord {
    return structuredClone(sell(this.world, options));
  }

  /**
   * A shop without the Range add-on has no range events (reference section 6) and nothing of a range at
   * its register: a range action there is a mistake in the test, not something the shop can answer.
   */
  private requireRange(action: string): void {
    if (!this.world.state.shop.settings.rangeAddon) {
      throw new SandboxUsageError(
        `register.${action}: this shop does not have the Range add-on (createSandbox({ rangeAddon: true }) or sandbox.setRangeAddon(true))`,
      );
    }
  }

  /**
   * Takes back a completed sale: return.created, sale.refunded (status refunded once every line is back),
   * inventory.changed per restocked line (reason return), store_credit.changed when settled in credit.
   */
  returnSale(orderId: number, options: ReturnSaleOptions = {}): ReturnRecord {
    return structuredClone(returnSale(this.world, orderId, options));
  }

  /** Adds a customer at the counter: customer.created. */
  addCustomer(customer: NewCustomer): CustomerRecord {
    return structuredClone(addCustomer(this.world, customer));
  }

  /** Edits a customer's name, email or phone: customer.updated. */
  updateCustomer(customerId: number, changes: CustomerChanges): CustomerRecord {
    return structuredClone(updateCustomer(this.world, customerId, changes));
  }

  /** Deletes a customer without history (no orders, bookings, memberships, accounts): customer.deleted. */
  deleteCustomer(customerId: number): void {
    deleteCustomer(this.world, customerId);
  }

  /**
   * Charges a member's saved card for what is owed now, as the nightly run does on a retry day: a card
   * that declines (membership 3 of the seeded shop) gives membership.payment_failed.
   */
  chargeSavedCard(membershipId: number): MembershipRecord {
    return structuredClone(chargeSavedCardNow(this.world, membershipId));
  }

  /**
   * Pays everything a member owes at the counter (a pending sign-up, past-due or counter dues): a
   * sale.completed dues order; pending or past_due becomes active (membership.updated).
   */
  payMembership(membershipId: number, options: { tender?: 'cash' | 'card' } = {}): MembershipRecord {
    return structuredClone(payAtRegister(this.world, membershipId, options));
  }
}
