/**
 * `amount_cents` of a balance move (a gift certificate, store credit, a house-account payment): whole cents,
 * at least one. The reference names these endpoints but shows no request shape: the field is the sandbox's.
 */
export const AMOUNT_CENTS = { type: 'integer', required: true, minimum: 1 } as const;
