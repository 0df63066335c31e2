// Lists copied BY HAND from ../shared/shop-api-reference.md, so that a test comparing the spec or the generated
// code against them fails when something the reference names is missing. Never derive these from src/ or spec/.

/** Every event type of the section 6 catalog. */
export const REFERENCE_EVENT_TYPES = [
  'product.created',
  'product.updated',
  'product.deleted',
  'inventory.changed',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'order.created',
  'sale.completed',
  'sale.voided',
  'sale.refunded',
  'return.created',
  'purchase_order.created',
  'purchase_order.submitted',
  'purchase_order.cancelled',
  'receiving.posted',
  'gift_certificate.issued',
  'gift_certificate.updated',
  'store_credit.changed',
  'invoice.created',
  'invoice.updated',
  'account.payment_received',
  'membership.created',
  'membership.updated',
  'membership.payment_failed',
  'coupon.created',
  'coupon.updated',
  'coupon.deleted',
  'location.created',
  'location.updated',
  'range.reservation.booked',
  'range.reservation.cancelled',
  'range.reservation.checked_in',
  'range.reservation.completed',
  'range.reservation.no_show',
  'range.rental.checked_out',
  'range.rental.checked_in',
  'range.rental.out_of_service',
  'range.rental.returned_to_service',
] as const;

/** Every code of section 7 with its HTTP status (null: the reference does not show one). */
export const REFERENCE_ERROR_STATUS: Readonly<Record<string, number | null>> = {
  VALIDATION_ERROR: 400,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  INVALID_API_KEY: 401,
  WRONG_ENVIRONMENT: 401,
  API_NOT_IN_PLAN: 402,
  TRIAL_EXPIRED: 402,
  BILLING_PAST_DUE: 402,
  SUBSCRIPTION_CANCELED: 402,
  PLAN_REQUIRED: 402,
  RANGE_ADDON_REQUIRED: 402,
  IP_NOT_ALLOWED: 403,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  SERIALIZED: 409,
  PO_SUBMITTED: 409,
  DUPLICATE_PURCHASE_ORDER: 409,
  NOTHING_OUTSTANDING: 409,
  NOT_TRACKED: 409,
  EXTERNAL_REFERENCE_TAKEN: 409,
  FIREARM_ORDER: 409,
  HAS_STOCK: 409,
  COMPLIANCE_FIELD: 409,
  SKU_TAKEN: 409,
  DUPLICATE_CUSTOMER: 409,
  INSUFFICIENT_STOCK: 409,
  CODE_TAKEN: 409,
  GIFT_CERTIFICATE_CODE_TAKEN: 409,
  FIELD_NOT_WRITABLE: 409,
  RESOURCE_UNAVAILABLE: 409,
  SESSION_FULL: 409,
  INVALID_STATE: 409,
  ALREADY_VOIDED: 409,
  SALE_REFUNDED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  ALREADY_MEMBER: 409,
  GIFT_CERTIFICATE_INACTIVE: 422,
  GIFT_CERTIFICATE_INSUFFICIENT: 422,
  INSUFFICIENT_CREDIT: 422,
  GIFT_CERTIFICATE_CODE_INVALID: 422,
  INVALID_REFERENCE: 422,
  INVALID_RESOURCE: 422,
  INVALID_SESSION: 422,
  CONSTRAINT_VIOLATION: 422,
  EMPTY_PO: 422,
  IDEMPOTENCY_MISMATCH: 422,
  PLAN_ARCHIVED: 422,
  MEMBERSHIPS_OFF: 422,
  CARD_PROCESSING_OFF: 422,
  NO_GUEST_PASSES: 422,
  OVERPAYMENT: 422,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  MEMBERSHIP_FULL: null,
};

/** Every reservation state of section 3, in the reference's order. */
export const REFERENCE_RESERVATION_STATUSES = [
  'held',
  'booked',
  'checked_in',
  'in_progress',
  'completed',
  'cancelled',
  'no_show',
  'released',
] as const;

/** [method, path, operationId]: every endpoint of reference section 4, with its fixed SDK method path. */
export const REFERENCE_OPERATIONS: ReadonlyArray<readonly [string, string, string]> = [
  ['get', '/v1/range/resources', 'range.resources.list'],
  ['get', '/v1/range/classes', 'range.classes.list'],
  ['get', '/v1/range/sessions', 'range.sessions.list'],
  ['get', '/v1/range/reservations', 'range.reservations.list'],
  ['get', '/v1/range/reservations/{id}', 'range.reservations.retrieve'],
  ['get', '/v1/range/availability', 'range.availability.list'],
  ['post', '/v1/range/reservations', 'range.reservations.create'],
  ['post', '/v1/range/reservations/{id}/check-in', 'range.reservations.checkIn'],
  ['post', '/v1/range/reservations/{id}/no-show', 'range.reservations.markNoShow'],
  ['post', '/v1/range/reservations/{id}/cancel', 'range.reservations.cancel'],
  ['get', '/v1/range/rentals', 'range.rentals.list'],
  ['get', '/v1/range/rentals/{id}', 'range.rentals.retrieve'],
  ['get', '/v1/range/rental-checkouts', 'range.rentalCheckouts.list'],
  ['get', '/v1/membership-plans', 'membershipPlans.list'],
  ['get', '/v1/memberships', 'memberships.list'],
  ['get', '/v1/memberships/{id}', 'memberships.retrieve'],
  ['post', '/v1/memberships', 'memberships.create'],
  ['post', '/v1/memberships/{id}/cancel', 'memberships.cancel'],
  ['post', '/v1/memberships/{id}/guest-pass', 'memberships.useGuestPass'],
  ['get', '/v1/card-transactions', 'cardTransactions.list'],
  ['get', '/v1/card-transactions/{id}', 'cardTransactions.retrieve'],
  ['get', '/v1/returns', 'returns.list'],
  ['get', '/v1/returns/{id}', 'returns.retrieve'],
  ['get', '/v1/events', 'events.list'],
  ['get', '/v1/locations', 'locations.list'],
  ['patch', '/v1/locations/{id}', 'locations.update'],
  ['get', '/v1/products', 'products.list'],
  ['patch', '/v1/products/{id}', 'products.update'],
  ['get', '/v1/inventory', 'inventory.list'],
  ['get', '/v1/inventory/serialized', 'inventory.listSerialized'],
  ['post', '/v1/inventory/adjust', 'inventory.adjust'],
  ['post', '/v1/inventory/set', 'inventory.set'],
  ['post', '/v1/purchase-orders', 'purchaseOrders.create'],
  ['post', '/v1/purchase-orders/{id}/receive', 'purchaseOrders.receive'],
  ['patch', '/v1/purchase-orders/{id}', 'purchaseOrders.update'],
  ['post', '/v1/purchase-orders/{id}/submit', 'purchaseOrders.submit'],
  ['post', '/v1/purchase-orders/{id}/cancel', 'purchaseOrders.cancel'],
  ['post', '/v1/orders', 'orders.create'],
  ['post', '/v1/orders/{id}/void', 'orders.void'],
  ['post', '/v1/customers/{id}/account/payments', 'customers.account.payments.create'],
  ['get', '/v1/me', 'me.retrieve'],
  ['get', '/v1/customers/{id}/account', 'customers.account.retrieve'],
  ['get', '/v1/invoices', 'invoices.list'],
  ['get', '/v1/invoices/{id}', 'invoices.retrieve'],
  ['get', '/v1/account-payments', 'accountPayments.list'],
  // Named by verb only in the reference; the paths are the spec's resource-style choice.
  ['post', '/v1/gift-certificates', 'giftCertificates.issue'],
  ['post', '/v1/gift-certificates/{id}/redeem', 'giftCertificates.redeem'],
  ['post', '/v1/gift-certificates/{id}/reverse', 'giftCertificates.reverse'],
  ['post', '/v1/gift-certificates/{id}/reload', 'giftCertificates.reload'],
  ['post', '/v1/gift-certificates/{id}/adjust', 'giftCertificates.adjust'],
  ['post', '/v1/gift-certificates/{id}/disable', 'giftCertificates.disable'],
  ['post', '/v1/gift-certificates/{id}/enable', 'giftCertificates.enable'],
  ['post', '/v1/coupons', 'coupons.create'],
  ['patch', '/v1/coupons/{id}', 'coupons.update'],
  ['delete', '/v1/coupons/{id}', 'coupons.delete'],
  ['get', '/v1/customers/{id}/store-credit', 'customers.storeCredit.retrieve'],
  ['post', '/v1/customers/{id}/store-credit/issue', 'customers.storeCredit.issue'],
  ['post', '/v1/customers/{id}/store-credit/redeem', 'customers.storeCredit.redeem'],
  ['get', '/v1/store-credit', 'storeCredit.list'],
];

/** Balance moves and account payments: the reference requires an Idempotency-Key on these. */
export const REFERENCE_BALANCE_MOVES: readonly string[] = [
  'giftCertificates.issue',
  'giftCertificates.redeem',
  'giftCertificates.reverse',
  'giftCertificates.reload',
  'giftCertificates.adjust',
  'customers.storeCredit.issue',
  'customers.storeCredit.redeem',
  'customers.account.payments.create',
];

/** The rate-limit headers of section 5, on every answer. */
export const REFERENCE_RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Daily-Limit',
  'X-RateLimit-Daily-Remaining',
] as const;

// Sections 4 and 7: the codes each endpoint can answer with. A spec code the reference does not tie to an
// endpoint shows up in test/resources/reference-gaps.test.ts.

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
