import { SandboxUsageError } from '../errors.js';

/** What `sandbox.faults.next` injects into upcoming requests. */
export interface FaultOptions {
  /** Answer with this 5xx status and the SERVER_ERROR envelope instead of the real answer. */
  status?: number;
  /**
   * Hold the request this many milliseconds (real time). Alone (or with `when: 'after'`) it is a slow shop:
   * the Idempotency-Key is claimed first, so a concurrent request with the same key gets 409
   * IDEMPOTENCY_IN_PROGRESS. With `status` or `reset` before the shop, it is a slow gateway that then fails.
   */
  delayMs?: number;
  /** Drop the connection: the HTTP server destroys the socket, msw and `sandbox.fetch` give a network error. */
  reset?: boolean;
  /**
   * `before`: a `status` or `reset` fault answers before the request reaches the shop (nothing changes); a
   * plain delay holds the request before it runs. `after`: the shop processes it, then the answer is
   * delayed, replaced by `status` or lost (`reset`), the case an Idempotency-Key exists for. @default 'before'
   */
  when?: 'before' | 'after';
  /** How many matching requests get the fault. @default 1 */
  times?: number;
  /** Only requests with this method. */
  method?: string;
  /** Only requests whose path starts with this string or matches this pattern. */
  path?: string | RegExp;
}

/** A fault as it applies to one request. */
export interface Fault {
  readonly status: number | null;
  readonly delayMs: number;
  readonly reset: boolean;
  readonly when: 'before' | 'after';
}

interface QueuedFault extends Fault {
  remaining: number;
  readonly method: string | null;
  readonly path: string | RegExp | null;
}

/** Queue of injected faults, consumed in order by matching requests. */
export class SandboxFaults {
  private queue: QueuedFault[] = [];

  /** Makes the next matching request(s) fail or slow down. */
  next(options: FaultOptions): void {
    const status = options.status ?? null;
    if (status !== null && (!Number.isInteger(status) || status < 500 || status > 599)) {
      throw new SandboxUsageError('faults.next: status must be a 5xx status');
    }
    if (status === null && !options.reset && !options.delayMs) {
      throw new SandboxUsageError('faults.next: give status, delayMs or reset');
    }
    this.queue.push({
      status,
      delayMs: options.delayMs ?? 0,
      reset: options.reset ?? false,
      when: options.when ?? 'before',
      remaining: options.times ?? 1,
      method: options.method?.toUpperCase() ?? null,
      path: options.path ?? null,
    });
  }

  /** Removes every fault not yet used. */
  clear(): void {
    this.queue = [];
  }

  /** Number of requests that will still be faulted. */
  get pending(): number {
    return this.queue.reduce((total, fault) => total + fault.remaining, 0);
  }

  /** @internal The fault for this request, if one is queued for it. */
  take(method: string, path: string): Fault | null {
    const fault = this.queue.find(
      (candidate) =>
        (candidate.method === null || candidate.method === method) &&
        (candidate.path === null ||
          (typeof candidate.path === 'string' ? path.startsWith(candidate.path) : candidate.path.test(path))),
    );
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.queue = this.queue.filter((candidate) => candidate !== fault);
    return fault;
  }
}
