// Server text (error messages, a proxy's HTML page) goes into error messages and logs; anything that looks
// like a credential is cut out first, because a misconfigured proxy may echo the request's headers back.

const REDACTED = '[redacted]';
const CREDENTIAL_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(Bearer\s+)[^\s"'<>,;]+/gi, `$1${REDACTED}`],
  [/whsec_[A-Za-z0-9_+/=-]+/g, REDACTED],
];

/** `text` with every `secrets` value, bearer token and webhook secret replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/** The first `max` characters of `text`, whitespace collapsed, with an ellipsis when cut. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
}

/** The copy is of the same class when the original's is built in, so it prints as `TypeError: ...` too. */
const BUILTIN_ERRORS = [TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];

/** How deep a cause chain is copied; runtimes nest two or three levels, and a cycle must end somewhere. */
const MAX_CAUSE_DEPTH = 5;

/**
 * A copy of a thrown `value` safe to keep on an error: `util.inspect` (what console.error and pino print)
 * shows an error's stack and its whole cause chain, and a runtime's text may quote the request's URL or
 * headers. An Error keeps its name, `code` and stack frames with message and stack redacted, and its
 * `cause` copied the same way; anything else becomes its redacted text.
 */
export function redactedCause(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (!(value instanceof Error)) return redact(String(value), secrets);
  const raw = value as Error & { code?: unknown; cause?: unknown };
  const nested =
    raw.cause === undefined || depth >= MAX_CAUSE_DEPTH
      ? undefined
      : { cause: redactedCause(raw.cause, secrets, depth + 1) };
  const Builtin = BUILTIN_ERRORS.find((ErrorClass) => ErrorClass === raw.constructor) ?? Error;
  const copy: Error & { code?: string } = new Builtin(redact(raw.message, secrets), nested);
  if (copy.name !== raw.name) {
    Object.defineProperty(copy, 'name', { value: raw.name, writable: true, configurable: true });
  }
  copy.stack = typeof raw.stack === 'string' ? redact(raw.stack, secrets) : `${raw.name}: ${copy.message}`;
  if (typeof raw.code === 'string') copy.code = raw.code;
  return copy;
}
