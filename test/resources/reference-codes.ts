// Copied BY HAND from ../shared/shop-api-reference.md (sections 4 and 7), never derived from src/ or spec/, so
// that a spec code the reference does not tie to an endpoint shows up in reference-gaps.test.ts.

/**
 * Codes every endpoint of a kind can return by the reference's common rules (section 4): a bad cursor on any
 * list, an invalid field on any call with params, an id that names no record, the Idempotency-Key rules of
 * section 8 on any POST, the balance-move key requirement, the Range add-on gate on /v1/range/*.
 */
const LIST = ['VALIDATION_ERROR'] as const;
const BY_ID = ['NOT_FOUND'] as const;
const POST = ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_MISMATCH'] as const;
const BALANCE_MOVE = ['IDEMPOTENCY_KEY_REQUIRED', ...POST] as const;
const RANGE = ['RANGE_ADDON_REQUIRED'] as const;

/**
 * Per operation, the section 7 codes the reference ties to it: named at the endpoint in section 4, or by a
 * section 7 condition that names the endpoint's own action ("set quantity of a serialized product", "submit a
 * PO with no lines", "change ... on an existing product"). A code the spec lists beyond these is an
 * inference and must say so.
 */
export const REFERENCE_CODES: Readonly<Record<string, readonly string[]>> = {
  'range.resources.list': [...LIST, ...RANGE],
  'range.classes.list': [...LIST, ...RANGE],
  'range.sessions.list': [...LIST, ...RANGE],
  'range.reservations.list': [...LIST, ...RANGE],
  'range.reservations.retrieve': [...BY_ID, ...RANGE],
  'range.availability.list': ['VALIDATION_ERROR', ...RANGE],
  // "Errors: 409 RESOURCE_UNAVAILABLE, 409 SESSION_FULL, 422 INVALID_RESOURCE, 422 INVALID_SESSION,
  // 422 CONSTRAINT_VIOLATION, 404 NOT_FOUND (...), 400 VALIDATION_ERROR (...)"
  'range.reservations.create': [
    'VALIDATION_ERROR',
    'NOT_FOUND',
    'RESOURCE_UNAVAILABLE',
    'SESSION_FULL',
    'INVALID_RESOURCE',
    'INVALID_SESSION',
    'CONSTRAINT_VIOLATION',
    ...RANGE,
    ...POST,
  ],
  // "only a booked reservation qualifies, else 409 INVALID_STATE"
  'range.reservations.checkIn': [...BY_ID, 'INVALID_STATE', ...RANGE, ...POST],
  'range.reservations.markNoShow': [...BY_ID, 'INVALID_STATE', ...RANGE, ...POST],
  'range.reservations.cancel': ['VALIDATION_ERROR', ...BY_ID, 'INVALID_STATE', ...RANGE, ...POST],
  // "any other value is 400 VALIDATION_ERROR"
  'range.rentals.list': [...LIST, ...RANGE],
  'range.rentals.retrieve': [...BY_ID, ...RANGE],
  'range.rentalCheckouts.list': [...LIST, ...RANGE],
  'membershipPlans.list': [...LIST],
  'memberships.list': [...LIST],
  // "Errors: 409 ALREADY_MEMBER, 422 PLAN_ARCHIVED, 422 MEMBERSHIPS_OFF, 422 CARD_PROCESSING_OFF"
  'memberships.create': [
    'VALIDATION_ERROR',
    'ALREADY_MEMBER',
    'PLAN_ARCHIVED',
    'MEMBERSHIPS_OFF',
    'CARD_PROCESSING_OFF',
    ...POST,
  ],
  'memberships.retrieve': [...BY_ID],
  // "A location-limited key can cancel only memberships homed at its locations; others answer 404."
  'memberships.cancel': ['VALIDATION_ERROR', ...BY_ID, ...POST],
  // "422 NO_GUEST_PASSES when none are left"
  'memberships.useGuestPass': ['VALIDATION_ERROR', ...BY_ID, 'NO_GUEST_PASSES', ...POST],
  'cardTransactions.list': [...LIST],
  'cardTransactions.retrieve': [...BY_ID],
  'returns.list': [...LIST],
  'returns.retrieve': [...BY_ID],
  'events.list': [...LIST],
  'locations.list': [...LIST],
  // "any other field gives 409 FIELD_NOT_WRITABLE with details.fields"
  'locations.update': ['VALIDATION_ERROR', ...BY_ID, 'FIELD_NOT_WRITABLE'],
  'products.list': [...LIST],
  // COMPLIANCE_FIELD: "change is_firearm, ... on an existing product"; HAS_STOCK: "flip is_serialized with
  // stock on hand". Changing an existing product is this endpoint's action.
  'products.update': ['VALIDATION_ERROR', ...BY_ID, 'COMPLIANCE_FIELD', 'HAS_STOCK'],
  'inventory.list': [...LIST],
  'inventory.listSerialized': [...LIST],
  // NOT_TRACKED: "stock change on a product that does not track inventory"
  'inventory.adjust': ['VALIDATION_ERROR', 'NOT_TRACKED', ...POST],
  // SERIALIZED: "set quantity of a serialized product"
  'inventory.set': ['VALIDATION_ERROR', 'SERIALIZED', 'NOT_TRACKED', ...POST],
  // DUPLICATE_PURCHASE_ORDER: "channel_order_id already exists"
  'purchaseOrders.create': ['VALIDATION_ERROR', 'DUPLICATE_PURCHASE_ORDER', ...POST],
  // PO_SUBMITTED: "change vendor or lines of a submitted PO"
  'purchaseOrders.update': ['VALIDATION_ERROR', ...BY_ID, 'PO_SUBMITTED'],
  // EMPTY_PO: "submit a PO with no lines"
  'purchaseOrders.submit': [...BY_ID, 'EMPTY_PO', ...POST],
  'purchaseOrders.cancel': [...BY_ID, ...POST],
  // SERIALIZED: "receive a serialized PO line"; NOTHING_OUTSTANDING: "nothing non-serialized left to receive"
  'purchaseOrders.receive': ['VALIDATION_ERROR', ...BY_ID, 'SERIALIZED', 'NOTHING_OUTSTANDING', ...POST],
  // EXTERNAL_REFERENCE_TAKEN: "external_reference collides with a non-API order"
  'orders.create': ['VALIDATION_ERROR', 'EXTERNAL_REFERENCE_TAKEN', ...POST],
  // FIREARM_ORDER: "void of an order with firearm lines"; ALREADY_VOIDED, SALE_REFUNDED: "order cannot be voided"
  'orders.void': [...BY_ID, 'FIREARM_ORDER', 'ALREADY_VOIDED', 'SALE_REFUNDED', ...POST],
  'customers.account.retrieve': [...BY_ID],
  // "Idempotency-Key required; paying more than owed also needs store_credit write, else 422 OVERPAYMENT"
  'customers.account.payments.create': ['VALIDATION_ERROR', ...BY_ID, 'OVERPAYMENT', ...BALANCE_MOVE],
  'customers.storeCredit.retrieve': [...BY_ID],
  'customers.storeCredit.issue': ['VALIDATION_ERROR', ...BY_ID, ...BALANCE_MOVE],
  // INSUFFICIENT_CREDIT: "not enough store credit"
  'customers.storeCredit.redeem': ['VALIDATION_ERROR', ...BY_ID, 'INSUFFICIENT_CREDIT', ...BALANCE_MOVE],
  'storeCredit.list': [...LIST],
  'invoices.list': [...LIST],
  'invoices.retrieve': [...BY_ID],
  'accountPayments.list': [...LIST],
  // GIFT_CERTIFICATE_CODE_TAKEN: "certificate code in use"; GIFT_CERTIFICATE_CODE_INVALID: "requested code not
  // 6 to 40 letters, digits or dashes"
  'giftCertificates.issue': [
    'VALIDATION_ERROR',
    'GIFT_CERTIFICATE_CODE_TAKEN',
    'GIFT_CERTIFICATE_CODE_INVALID',
    ...BALANCE_MOVE,
  ],
  // GIFT_CERTIFICATE_INACTIVE: "disabled, expired or depleted"; GIFT_CERTIFICATE_INSUFFICIENT: "balance too low"
  'giftCertificates.redeem': [
    'VALIDATION_ERROR',
    ...BY_ID,
    'GIFT_CERTIFICATE_INACTIVE',
    'GIFT_CERTIFICATE_INSUFFICIENT',
    ...BALANCE_MOVE,
  ],
  'giftCertificates.reverse': ['VALIDATION_ERROR', ...BY_ID, ...BALANCE_MOVE],
  'giftCertificates.reload': ['VALIDATION_ERROR', ...BY_ID, ...BALANCE_MOVE],
  'giftCertificates.adjust': ['VALIDATION_ERROR', ...BY_ID, ...BALANCE_MOVE],
  'giftCertificates.disable': ['VALIDATION_ERROR', ...BY_ID, ...POST],
  'giftCertificates.enable': ['VALIDATION_ERROR', ...BY_ID, ...POST],
  // CODE_TAKEN: "coupon code in use"; VALIDATION_ERROR: a store_online coupon for a location without storefront
  'coupons.create': ['VALIDATION_ERROR', 'CODE_TAKEN', ...POST],
  'coupons.update': ['VALIDATION_ERROR', ...BY_ID, 'CODE_TAKEN'],
  'coupons.delete': [...BY_ID],
  'me.retrieve': [],
};

/**
 * The operations of section 4's "Inventory sync and purchasing endpoints (partly shown)" table, whose
 * "Request and response shapes ... beyond what its cells state: not shown". None of them has a request shape
 * the reference shows whole, so none may refuse a field the reference does not name.
 */
export const PARTLY_SHOWN_OPERATIONS = [
  'locations.list',
  'locations.update',
  'products.list',
  'products.update',
  'inventory.list',
  'inventory.listSerialized',
  'inventory.adjust',
  'inventory.set',
  'purchaseOrders.create',
  'purchaseOrders.receive',
  'purchaseOrders.update',
  'purchaseOrders.submit',
  'purchaseOrders.cancel',
  'orders.create',
  'orders.void',
  'customers.account.payments.create',
  'me.retrieve',
  'customers.account.retrieve',
  'invoices.list',
  'invoices.retrieve',
  'accountPayments.list',
  'giftCertificates.issue',
  'giftCertificates.redeem',
  'giftCertificates.reverse',
  'giftCertificates.reload',
  'giftCertificates.adjust',
  'giftCertificates.disable',
  'giftCertificates.enable',
  'coupons.create',
  'coupons.update',
  'coupons.delete',
  'customers.storeCredit.retrieve',
  'customers.storeCredit.issue',
  'customers.storeCredit.redeem',
  'storeCredit.list',
] as const;
