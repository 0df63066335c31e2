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
