// What a viewer (an API key or a webhook endpoint) may see of a payload; below http/ so deliveries redact too.

/** Who is looking at a payload: decides whether customers stay whole and dates of birth stay in. */
export interface PayloadViewer {
  readonly fullCustomers: boolean;
  readonly dateOfBirth: boolean;
}

/**
 * A deep copy of `payload` as `viewer` may see it: a customer embedded below the top level is reduced to
 * {object, id} without customers:read, and date_of_birth is removed everywhere without the dob right.
 * Copying also keeps callers from mutating stored records.
 */
export function redactPayload<T>(payload: T, viewer: PayloadViewer): T {
  return redact(payload, viewer, 0) as T;
}

function redact(value: unknown, viewer: PayloadViewer, depth: number): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item, viewer, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (depth > 0 && record.object === 'customer' && !viewer.fullCustomers) {
    return { object: 'customer', id: record.id };
  }
  const copy: Record<string, unknown> = {};
  for (const [field, fieldValue] of Object.entries(record)) {
    if (field === 'date_of_birth' && !viewer.dateOfBirth) continue;
    copy[field] = redact(fieldValue, viewer, depth + 1);
  }
  return copy;
}
