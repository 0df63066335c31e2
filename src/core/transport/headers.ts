import { mergeHeaderValues } from '../../internal/headers.js';
import type { RequestHeaders } from '../api/request-options.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';

/**
 * A copy of `base` with the caller's headers applied over it (src/internal/headers.ts: names lower-cased, a
 * null or undefined value removes the header). A name or value fetch would refuse is refused here with a
 * `ParamsValidationError` on `headers`, before anything is sent.
 */
export function mergeHeaders(
  base: Readonly<Record<string, string>>,
  extra: RequestHeaders | undefined,
): Record<string, string> {
  const merged = mergeHeaderValues(base, extra);
  if (merged.problem !== null) throw new ParamsValidationError({ headers: [merged.problem] });
  return merged.headers;
}
