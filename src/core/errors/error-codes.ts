// The codes of the reference's section 7 and their statuses come from the spec, through the generator.
// src/generated/error-codes.ts imports no zod, so the errors stay loadable without it.
export { ERROR_CODE_STATUS, ERROR_CODES, type ErrorCode } from '../../generated/error-codes.js';
