import { sendSignedDelivery } from '../webhooks/send-delivery.js';

/** What one attempt to deliver to the local receiver gave. */
export interface ForwardResult {
  readonly eventId: string;
  readonly eventType: string;
  readonly deliveryId: string;
  readonly attempt: number;
  /** The receiver's HTTP status, or null when it did not answer. */
  readonly status: number | null;
  /** Why it failed (`http_500`, `connection_error: ECONNREFUSED`, `timeout`), null on a 2xx. */
  readonly error: string | null;
  /** The start of what the receiver answered (its body, up to 300 characters, secrets redacted); null without an answer. */
  readonly answer: string | null;
  readonly ms: number;
}

/** Options of a {@link Forwarder}. */
export interface ForwarderOptions {
  url: string;
  secret: string;
  /** Called after every attempt (the CLI prints a line). */
  onAttempt: (result: ForwardResult) => void;
  /** Attempts per delivery before giving up. @default 5 */
  attempts?: number;
  /** First back-off in ms, doubling each time. @default 500 */
  backoffMs?: number;
  /** How long the receiver may take, as the service allows. @default 10000 */
  timeoutMs?: number;
  /** Attempts already made for an event (by an earlier run), so numbering carries on. @default none */
  attemptsOf?: (eventId: string) => number;
  /** The User-Agent of the deliveries. @default 'shop-mgmt-cli-listen' */
  userAgent?: string;
  /**
   * Headers sent on every delivery besides the service's own: an endpoint's custom auth header (reference
   * section 6). They cannot replace a `Service-*` header or Content-Type. @default none
   */
  extraHeaders?: Readonly<Record<string, string>>;
}

/**
 * A delivery that failed every attempt. `refused`: the receiver answered every time (a non-2xx), so the
 * event is what fails, not the connection; otherwise the receiver could not be reached.
 */
export class ForwardError extends Error {
  constructor(
    message: string,
    readonly last: ForwardResult | null,
    /** False when a stop (Ctrl-C) cut the attempts short. */
    readonly exhausted = true,
  ) {
    super(message);
  }

  /** True when every attempt was made and the receiver answered the last one (with a non-2xx). */
  get refused(): boolean {
    return this.exhausted && this.last?.status != null;
  }
}

/**
 * Delivers feed events to a local receiver as the service delivers webhooks: the event envelope as the
 * body, sent by `sendSignedDelivery` (the sandbox's sender too) signed with the local secret. Each event keeps one
 * attempt counter for the life of the process, so a retry says `Service-Attempt: 2` and so on; each
 * delivery (a fresh call of `deliver`) has its own id.
 */
export class Forwarder {
  readonly #attempts = new Map<string, number>();
  readonly #options: Required<ForwarderOptions>;
  #stopped = false;

  constructor(options: ForwarderOptions) {
    this.#options = {
      attempts: 5,
      backoffMs: 500,
      timeoutMs: 10_000,
      attemptsOf: () => 0,
      userAgent: 'shop-mgmt-cli-listen',
      extraHeaders: {},
      ...options,
    };
  }

  /** Stops waiting between retries (Ctrl-C). */
  stop(): void {
    this.#stopped = true;
  }

  /** Delivers `event`, retrying with back-off; throws ForwardError when every attempt failed. */
  async deliver(event: { id: string; type: string }, deliveryId = newDeliveryId()): Promise<ForwardResult> {
    let last: ForwardResult | null = null;
    for (let attempt = 0; attempt < this.#options.attempts && !this.#stopped; attempt++) {
      if (attempt > 0) await sleep(this.#options.backoffMs * 2 ** (attempt - 1));
      if (this.#stopped) break;
      last = await this.send(event, deliveryId);
      this.#options.onAttempt(last);
      if (last.error === null) return last;
    }
    const tries = this.#options.attempts === 1 ? '' : ` after ${this.#options.attempts} attempts`;
    throw new ForwardError(
      `could not deliver ${event.type} ${event.id} to ${this.#options.url}${tries} (${last?.error ?? 'stopped'}${last?.answer ? `: ${last.answer}` : ''})`,
      last,
      !this.#stopped,
    );
  }

  /** One signed POST with the next attempt number of the event; `body` is the event as JSON unless given. */
  async send(
    event: { id: string; type: string },
    deliveryId: string,
    body: string = JSON.stringify(event),
  ): Promise<ForwardResult> {
    const attempt = (this.#attempts.get(event.id) ?? this.#options.attemptsOf(event.id)) + 1;
    this.#attempts.set(event.id, attempt);
    const started = performance.now();
    const outcome = await sendSignedDelivery({
      url: this.#options.url,
      body,
      eventType: event.type,
      eventId: event.id,
      deliveryId,
      attempt,
      secret: this.#options.secret,
      userAgent: this.#options.userAgent,
      timeoutMs: this.#options.timeoutMs,
      extraHeaders: this.#options.extraHeaders,
      readAnswer: true,
    });
    return {
      eventId: event.id,
      eventType: event.type,
      deliveryId,
      attempt,
      status: outcome.status,
      error: outcome.error,
      answer: outcome.answer,
      ms: Math.round(performance.now() - started),
    };
  }
}

/** True when a receiver's answer says the signature did not verify. */
export function isSignatureRefusal(result: ForwardResult): boolean {
  return result.status === 400 && /signature/i.test(result.answer ?? '');
}

/** True when a receiver's answer says it had the event already. */
export function isDuplicateAnswer(result: ForwardResult): boolean {
  return result.status !== null && result.status < 300 && /"duplicate"\s*:\s*true/.test(result.answer ?? '');
}

/** A delivery id of the CLI's own, told apart from the service's `whd_` ids. */
export function newDeliveryId(): string {
  return `whd_local_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
