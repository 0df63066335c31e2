import type { ErrorCode } from './error-codes.js';

/** The `details` of the codes the reference types; each shape stays open. */
export interface ErrorDetailsByCode {
  /** Each invalid field's name mapped to its messages. */
  VALIDATION_ERROR: Record<string, string[]>;
  INSUFFICIENT_SCOPE: { required: string; [field: string]: unknown };
  DUPLICATE_CUSTOMER: { existing_id: number; [field: string]: unknown };
  GIFT_CERTIFICATE_INSUFFICIENT: { balance_cents: number; [field: string]: unknown };
  GIFT_CERTIFICATE_INACTIVE: {
    status: 'disabled' | 'expired' | 'depleted' | (string & {});
    [field: string]: unknown;
  };
  /** The serialized purchase-order lines that were not received. */
  NOTHING_OUTSTANDING: { skipped: unknown[]; [field: string]: unknown };
  FIELD_NOT_WRITABLE: { fields: string[]; [field: string]: unknown };
  COMPLIANCE_FIELD: { field: string; [field: string]: unknown };
}

/** The `details` type of `code`, else an open object. */
export type ErrorDetails<Code extends string> = Code extends keyof ErrorDetailsByCode
  ? ErrorDetailsByCode[Code]
  : Record<string, unknown>;

/** A known code, or any string a later API may send. */
export type AnyErrorCode = ErrorCode | (string & {});
