import { uuid4 } from '../internal/uuid.js';
import { ParamsValidationError } from './errors/params-validation-error.js';

/** The API refuses longer keys (reference section 8); the SDK refuses them first, before anything is sent. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 100;

/**
 * The Idempotency-Key of a POST: the caller's, else a fresh UUID v4. Resolved once per call, so every retry
 * of the call sends the same key and the server can replay instead of acting twice.
 */
export function resolveIdempotencyKey(callerKey: string | undefined): string {
  if (callerKey === undefined) return uuid4();
  if (typeof callerKey !== 'string' || callerKey.length === 0) {
    throw new ParamsValidationError({ idempotencyKey: ['must be a non-empty string'] });
  }
  if (callerKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ParamsValidationError({
      idempotencyKey: [`must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${callerKey.length}`],
    });
  }
  // A header value must be printable ASCII; anything else would fail inside fetch with a bare TypeError.
  if (!/^[\x20-\x7e]+$/.test(callerKey)) {
    throw new ParamsValidationError({ idempotencyKey: ['must be printable ASCII'] });
  }
  return callerKey;
}

/** True when the server answered from its idempotency store instead of acting again. */
export function isIdempotentReplay(headers: Headers): boolean {
  return headers.get('idempotent-replayed') === 'true';
}
