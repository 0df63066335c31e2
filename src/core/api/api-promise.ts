import { parseRateLimit, type RateLimitInfo } from '../rate-limit/rate-limit.js';
import type { CallRecovery } from '../transport/call.js';

function isIdempotentReplay(headers: Headers): boolean {
  return headers.get('idempotent-replayed') === 'true';
}

/** What `.withResponse()` gives. */
export interface APIResponse<T> extends CallRecovery {
  /** What the call's promise resolves to. */
  readonly data: T;
  /** The raw response; its body was already read. */
  readonly response: Response;
  readonly rateLimit: RateLimitInfo;
  /** The server replayed a stored response for this Idempotency-Key. */
  readonly idempotentReplayed: boolean;
}

/** An {@link APIResponse} that parses its headers only when read. */
export class LazyAPIResponse<T> implements APIResponse<T> {
  #rateLimit: RateLimitInfo | undefined;

  readonly idempotencyKey: string | null;
  readonly attempts: number;
  readonly operation: string;
  readonly elapsedMs: number;
  readonly mayHaveBeenApplied: boolean;

  constructor(
    readonly data: T,
    readonly response: Response,
    call: CallRecovery,
  ) {
    this.idempotencyKey = call.idempotencyKey;
    this.attempts = call.attempts;
    this.operation = call.operation;
    this.elapsedMs = call.elapsedMs;
    this.mayHaveBeenApplied = call.mayHaveBeenApplied;
  }

  get rateLimit(): RateLimitInfo {
    this.#rateLimit ??= parseRateLimit(this.response.headers);
    return this.#rateLimit;
  }

  get idempotentReplayed(): boolean {
    return isIdempotentReplay(this.response.headers);
  }
}

/** The promise every call returns. */
export class APIPromise<T> extends Promise<T> {
  readonly #withResponse: Promise<APIResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(withResponse: Promise<APIResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#withResponse = withResponse;
  }

  /** `then` and friends build plain promises. */
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The result with its response. */
  withResponse(): Promise<APIResponse<T>> {
    return this.#withResponse;
  }

  /** The raw `Response`; its body was already read. */
  asResponse(): Promise<Response> {
    return this.#withResponse.then((result) => result.response);
  }

  #result(): Promise<T> {
    this.#data ??= this.#withResponse.then((result) => result.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: this class is a Promise; `then` reads the call's result.
  override then<Fulfilled = T, Rejected = never>(
    onFulfilled?: ((value: T) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#result().then(onFulfilled, onRejected);
  }

  override catch<Rejected = never>(
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<T | Rejected> {
    return this.#result().catch(onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#result().finally(onFinally);
  }
}
