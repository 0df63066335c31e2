import { mergeHeaderValues } from '../../internal/headers.js';
import type { RequestHeaders } from '../api/request-options.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';

/** `base` with the caller's headers over it; a header fetch would refuse is a `ParamsValidationError`. */
export function mergeHeaders(
  base: Readonly<Record<string, string>>,
  extra: RequestHeaders | undefined,
): Record<string, string> {
  const merged = mergeHeaderValues(base, extra);
  if (merged.problem !== null) throw new ParamsValidationError({ headers: [merged.problem] });
  return merged.headers;
}
