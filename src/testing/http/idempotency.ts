import type { SandboxClock } from '../clock.js';
import { apiError } from '../errors.js';

const WINDOW_MS = 24 * 3_600_000;

/** A response kept for replay: everything but the rate-limit headers, which are per response. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

interface Entry {
  readonly fingerprint: string;
  readonly createdAtMs: number;
  response: StoredResponse | null;
}

/**
 * Idempotency-Key handling (reference section 8): scoped to the API key, kept 24 hours, replayed only for the
 * same request, 5xx never stored. Entries stay in creation order, so expired ones are swept from the front.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: SandboxClock) {}

  /** How many keys are held (for tests of the sweep). */
  get size(): number {
    return this.entries.size;
  }

  /** How many keys are claimed by a request still running (for tests that wait for a claim). */
  get inFlight(): number {
    let running = 0;
    for (const entry of this.entries.values()) if (entry.response === null) running += 1;
    return running;
  }

  /**
   * Claims the key for this request. Returns the stored response to replay, or null when the request
   * should run (the caller must then `complete` or `abandon`).
   */
  begin(scope: string, key: string, fingerprint: string): StoredResponse | null {
    const id = `${scope}\u0000${key}`;
    const now = this.clock.nowMs();
    this.sweep(now);
    const entry = this.entries.get(id);
    if (entry) {
      if (entry.fingerprint !== fingerprint) {
        throw apiError('IDEMPOTENCY_MISMATCH', 'This Idempotency-Key was used with a different request');
      }
      if (entry.response === null) {
        throw apiError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still running');
      }
      return entry.response;
    }
    this.entries.set(id, { fingerprint, createdAtMs: now, response: null });
    return null;
  }

  /** Deletes the entries whose 24 hours are over; they are the oldest, so the first live one ends the sweep. */
  private sweep(now: number): void {
    for (const [id, entry] of this.entries) {
      if (entry.createdAtMs > now - WINDOW_MS) return;
      this.entries.delete(id);
    }
  }

  complete(scope: string, key: string, response: StoredResponse): void {
    const entry = this.entries.get(`${scope}\u0000${key}`);
    if (!entry) return;
    if (response.status >= 500) this.entries.delete(`${scope}\u0000${key}`);
    else entry.response = response;
  }

  abandon(scope: string, key: string): void {
    this.entries.delete(`${scope}\u0000${key}`);
  }
}

/** Same method, path and JSON body (key order ignored) give the same fingerprint. */
export function fingerprintOf(method: string, path: string, body: unknown): string {
  return `${method} ${path} ${canonicalJson(body)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
