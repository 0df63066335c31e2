// Credentials are cut out of server text before it reaches errors and logs (a proxy may echo headers).

const REDACTED = '[redacted]';
const CREDENTIAL_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(Bearer\s+)[^\s"'<>,;]+/gi, `$1${REDACTED}`],
  [/whsec_[A-Za-z0-9_+/=-]+/g, REDACTED],
];

/** `text` with every `hidden` value, bearer token and webhook secret redacted. */
export function redact(text: string, hidden: readonly string[] = []): string {
  let result = text;
  for (const secret of hidden) {
    if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/** The first `max` characters of `text`, whitespace collapsed. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
}

/** `excerpt(redact(text))` for text of any size, never leaving a secret half-cut. */
export function snippet(text: string, hidden: readonly string[] = [], max = 200): string {
  let longest = 64;
  for (const secret of hidden) longest = Math.max(longest, secret.length);
  const room = 2 * max + 2 * longest;
  if (text.length <= room) return excerpt(redact(text, hidden), max);
  const start = redact(text.slice(0, room), hidden);
  return excerpt(`${start.slice(0, start.length - longest)} ...`, max);
}

/** Built-in error classes kept in a copy. */
const BUILTIN_ERRORS = [TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];

/** How deep a cause chain is copied. */
const MAX_CAUSE_DEPTH = 5;

/** A redacted copy of a thrown `value`, cause chain included. */
export function redactedCause(value: unknown, hidden: readonly string[], depth = 0): unknown {
  if (!(value instanceof Error)) return redact(String(value), hidden);
  const raw = value as Error & { code?: unknown; cause?: unknown };
  const nested =
    raw.cause === undefined || depth >= MAX_CAUSE_DEPTH
      ? undefined
      : { cause: redactedCause(raw.cause, hidden, depth + 1) };
  const Builtin = BUILTIN_ERRORS.find((ErrorClass) => ErrorClass === raw.constructor) ?? Error;
  const copy: Error & { code?: string } = new Builtin(redact(raw.message, hidden), nested);
  if (copy.name !== raw.name) {
    Object.defineProperty(copy, 'name', { value: raw.name, writable: true, configurable: true });
  }
  copy.stack = typeof raw.stack === 'string' ? redact(raw.stack, hidden) : `${raw.name}: ${copy.message}`;
  if (typeof raw.code === 'string') copy.code = raw.code;
  return copy;
}

/** How deep a copy of server data goes. */
const MAX_COPY_DEPTH = 32;
/** How many values a copy holds at most. */
const MAX_COPY_NODES = 100_000;
const TOO_DEEP = '[truncated]';

/** A redacted, bounded copy of parsed JSON. */
export function redactedCopy(value: unknown, hidden: readonly string[]): unknown {
  const budget = { nodes: MAX_COPY_NODES };
  return copyOf(value, hidden, 0, budget);
}

function copyOf(
  value: unknown,
  hidden: readonly string[],
  depth: number,
  budget: { nodes: number },
): unknown {
  if (typeof value === 'string') return redact(value, hidden);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_COPY_DEPTH || budget.nodes <= 0) return TOO_DEEP;
  budget.nodes--;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) out.push(copyOf(item, hidden, depth + 1, budget));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, redact(key, hidden), {
      value: copyOf(item, hidden, depth + 1, budget),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A short, redacted preview of a value for an error message. */
export function preview(value: unknown, hidden: readonly string[], max = 200): string {
  const parts: string[] = [];
  let length = 0;
  const push = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  const walk = (item: unknown, depth: number): void => {
    if (length > max) return;
    if (typeof item === 'string') {
      push(JSON.stringify(snippet(item, hidden, max)));
      return;
    }
    if (typeof item !== 'object' || item === null) {
      push(String(item));
      return;
    }
    if (depth >= 4) {
      push(Array.isArray(item) ? '[...]' : '{...}');
      return;
    }
    const array = Array.isArray(item);
    push(array ? '[' : '{');
    let first = true;
    for (const [key, child] of array ? item.entries() : Object.entries(item)) {
      if (length > max) break;
      if (!first) push(',');
      first = false;
      if (!array) push(`${JSON.stringify(snippet(String(key), hidden, max))}:`);
      walk(child, depth + 1);
    }
    push(array ? ']' : '}');
  };
  walk(value, 0);
  // Redacted again whole, for patterns split by JSON.
  return excerpt(redact(parts.join(''), hidden), max);
}

/** `text` with the credentials of every URL in it cut out. */
export function withoutCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1[redacted]@');
}

/** A database URL with its password cut out, its user kept. */
export function withoutPassword(db: string): string {
  return db.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^@]*@/i, '$1:[redacted]@');
}
