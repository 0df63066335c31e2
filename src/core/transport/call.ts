import type { HttpMethod, Operation } from '../api/operation.js';
import { ConflictError, InternalServerError } from '../errors/api-errors.js';
import { isShopError } from '../errors/shop-error.js';
import { TimeoutError } from '../errors/transport-errors.js';
import type { ShopRequestContext } from '../observe/hooks.js';
import type { RequestTraceMessage } from '../observe/tracing.js';

/**
 * What a caller needs to reconcile a call after the fact: on every result (`.withResponse()`) and on every
 * error a call rejects with. A POST that ended in a ConnectionError or TimeoutError may have been applied
 * server-side: send it again with the same `idempotencyKey` and the API answers with the first outcome.
 */
export interface CallRecovery {
  /** The POST's Idempotency-Key, given or generated; null for other methods. */
  readonly idempotencyKey: string | null;
  /** Attempts made (1 when the first one settled the call). */
  readonly attempts: number;
  /** The operation id, e.g. `range.reservations.create`. */
  readonly operation: string;
  /** Milliseconds from the call's start to its end, waits between retries included. */
  readonly elapsedMs: number;
  /**
   * Whether the server may have applied the call. On a result: true unless it was a GET. On an error: true
   * when an attempt of a POST, PATCH or DELETE went unanswered (a timeout, a reset connection), was answered
   * 5xx, or met `IDEMPOTENCY_IN_PROGRESS` (an earlier attempt still running): send it again with the same
   * `idempotencyKey`, or look the record up, before doing anything else. False when every answer refused
   * it (a 4xx), when nothing was sent (the throttle refused, a deadline passed first), and for every GET.
   */
  readonly mayHaveBeenApplied: boolean;
}

/** One call in flight: the state its attempts, hooks, logs and trace share. One small object per call. */
export class CallState implements CallRecovery {
  attempts = 0;
  elapsedMs = 0;
  mayHaveBeenApplied = false;
  /** Set when an attempt ended in a way that does not prove the server left the call unapplied. */
  uncertain = false;
  /** Set when the call is traced (a subscriber on `shop-mgmt:request`); null otherwise. */
  trace: RequestTraceMessage | null = null;
  readonly startedAt = performance.now();
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;

  constructor(
    /** The operation called: its result schema validates the answer. */
    readonly spec: Operation,
    /** True for a page of a cursor list: `data` is an array of items and `meta` is checked. */
    readonly list: boolean,
    readonly idempotencyKey: string | null,
    /** `performance.now()` past which no attempt starts and no wait is taken; null without a deadline. */
    readonly deadlineAt: number | null,
    /** The deadline in milliseconds, for the error naming it. */
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

  /** The TimeoutError of a call past its deadline after `attemptsMade` attempts; `cause`: the last failure. */
  deadlineError(attemptsMade: number, cause?: unknown): TimeoutError {
    return new TimeoutError(this.deadline ?? 0, { deadline: this.deadline ?? 0, attemptsMade, cause });
  }

  /** The context hooks see for the current attempt; built only when a hook is there to read it. */
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

  /** Notes an attempt's error that leaves the outcome in doubt: a 5xx, or `IDEMPOTENCY_IN_PROGRESS`. */
  doubt(error: unknown): void {
    if (
      error instanceof InternalServerError ||
      (error instanceof ConflictError && error.code === 'IDEMPOTENCY_IN_PROGRESS')
    ) {
      this.uncertain = true;
    }
  }

  /** Marks the call finished: its elapsed time, whether it may have been applied, the trace's final figures. */
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

  /** The recovery fields copied onto an error the call rejects with (one of the SDK's, not a caller's abort reason). */
  stamp(error: unknown): void {
    if (typeof error !== 'object' || error === null || !Object.isExtensible(error)) return;
    const target = error as Record<string, unknown>;
    // A caller's abort reason, or an error already stamped by an inner call, keeps what it has.
    if (target.attempts !== undefined || !isShopError(error)) return;
    target.idempotencyKey = this.idempotencyKey;
    target.attempts = this.attempts;
    if (target.operation === undefined || target.operation === null) target.operation = this.operation;
    target.elapsedMs = this.elapsedMs;
    target.mayHaveBeenApplied = this.mayHaveBeenApplied;
  }
}
