// Generated from the spec; src/generated/error-codes.ts imports no zod.
export { ERROR_CODE_STATUS, ERROR_CODES, type ErrorCode } from '../../generated/error-codes.js';
