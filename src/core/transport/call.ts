import type { HttpMethod, Operation } from '../api/operation.js';
import { ConflictError, InternalServerError } from '../errors/api-errors.js';
import { isShopError } from '../errors/shop-error.js';
import { TimeoutError } from '../errors/transport-errors.js';
import type { ShopRequestContext } from '../observe/hooks.js';
import type { RequestTraceMessage } from '../observe/tracing.js';

/** What reconciles a call after the fact, on every result (`.withResponse()`) and every error. */
export interface CallRecovery {
  /** The POST's Idempotency-Key. */
  readonly idempotencyKey: string | null;
  readonly attempts: number;
  readonly operation: string;
  /** ms from start to end, waits included. */
  readonly elapsedMs: number;
  /** The server may have applied the call: resend with the same `idempotencyKey`. */
  readonly mayHaveBeenApplied: boolean;
}

/** One call in flight, shared by its attempts, hooks, logs and trace. */
export class CallState implements CallRecovery {
  attempts = 0;
  elapsedMs = 0;
  mayHaveBeenApplied = false;
  /** Set when an attempt's end does not prove the call unapplied. */
  uncertain = false;
  /** Set when the call is traced. */
  trace: RequestTraceMessage | null = null;
  readonly startedAt = performance.now();
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;

  constructor(
    readonly spec: Operation,
    /** True for a page of a cursor list. */
    readonly list: boolean,
    readonly idempotencyKey: string | null,
    /** `performance.now()` of the deadline. */
    readonly deadlineAt: number | null,
    readonly deadline: number | null,
  ) {
    this.operation = spec.id;
    this.method = spec.method;
    this.path = spec.path;
  }

  /** Milliseconds left before the deadline (Infinity without one). */
  remaining(): number {
    return this.deadlineAt === null ? Number.POSITIVE_INFINITY : this.deadlineAt - performance.now();
  }

  /** The TimeoutError of a call past its deadline; `cause`: the last failure. */
  deadlineError(attemptsMade: number, cause?: unknown): TimeoutError {
    return new TimeoutError(this.deadline ?? 0, { deadline: this.deadline ?? 0, attemptsMade, cause });
  }

  /** The context hooks see, built only when a hook reads it. */
  context(startedAt: number): ShopRequestContext {
    return {
      operation: this.operation,
      method: this.method,
      path: this.path,
      attempt: this.attempts,
      idempotencyKey: this.idempotencyKey,
      startedAt,
    };
  }

  /** Notes an error that leaves the outcome in doubt (5xx, `IDEMPOTENCY_IN_PROGRESS`). */
  doubt(error: unknown): void {
    if (
      error instanceof InternalServerError ||
      (error instanceof ConflictError && error.code === 'IDEMPOTENCY_IN_PROGRESS')
    ) {
      this.uncertain = true;
    }
  }

  finish(status: number | null, ok: boolean): void {
    this.elapsedMs = performance.now() - this.startedAt;
    this.mayHaveBeenApplied = this.method !== 'GET' && (ok || this.uncertain);
    const trace = this.trace;
    if (trace) {
      trace.status = status;
      trace.attempts = this.attempts;
      trace.elapsedMs = this.elapsedMs;
    }
  }

  /** Stamps the recovery fields on an SDK error. */
  stamp(error: unknown): void {
    if (typeof error !== 'object' || error === null || !Object.isExtensible(error)) return;
    const target = error as Record<string, unknown>;
    if (target.attempts !== undefined || !isShopError(error)) return;
    target.idempotencyKey = this.idempotencyKey;
    target.attempts = this.attempts;
    if (target.operation === undefined || target.operation === null) target.operation = this.operation;
    target.elapsedMs = this.elapsedMs;
    target.mayHaveBeenApplied = this.mayHaveBeenApplied;
  }
}
