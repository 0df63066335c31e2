import { safeParse } from 'zod/mini';
import type * as core from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

/**
 * Parses as the SDK describes a failure (src/core/validation/validation.ts): zod/mini with English messages passed to
 * the parse, not installed globally, so a test sees the messages a ResponseValidationError would carry.
 */
export function parseInEnglish(schema: core.$ZodType, input: unknown) {
  return safeParse(schema, input, { error: en().localeError });
}
