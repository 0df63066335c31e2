import { sendSignedDelivery } from '../../webhooks/send-delivery.js';
import type { SandboxClock } from '../clock.js';
import { SandboxUsageError } from '../errors.js';
import type { SeededRandom } from '../random.js';
import type { EndpointRegistry, WebhookEndpoint } from './endpoints.js';
import type { StoredEvent } from './log.js';
import { redactPayload } from './payload-view.js';
import { refuseEndpointUrl } from './url-rules.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Wait after each failed attempt (reference section 6): 9 attempts over about 37 hours. */
export const RETRY_DELAYS_MS = [
  MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const DISABLE_AFTER_FAILURES = 30;
const DISABLE_AFTER_MS = 24 * HOUR;
/** Finished deliveries kept for `resend`, and attempts kept for `deliveries()`: the most recent ones. */
export const DELIVERY_HISTORY = 1_000;

/** One try at delivering an event to an endpoint, as `sandbox.webhooks.deliveries()` lists it. */
export interface DeliveryAttempt {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly endpointId: string;
  /** 1 for the first try, 2 or more for retries (the Service-Attempt header). */
  readonly attempt: number;
  /** When it was made, on the sandbox clock. */
  readonly at: string;
  readonly status: 'succeeded' | 'failed';
  /** The receiver's HTTP status, or null when no response came. */
  readonly httpStatus: number | null;
  /** Why it failed: `http_503`, `redirect_302`, `timeout`, `connection_error: ...`, `url_refused: ...`. */
  readonly error: string | null;
}

/** A delivery waiting for its next attempt, as `sandbox.webhooks.pending()` lists it. */
export interface PendingDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly endpointId: string;
  readonly nextAttempt: number;
  readonly dueAt: string;
}

interface Delivery {
  readonly id: string;
  readonly event: StoredEvent;
  readonly endpointId: string;
  readonly body: string;
  attemptsMade: number;
  status: 'pending' | 'sending' | 'succeeded' | 'failed' | 'cancelled';
  dueAtMs: number;
}

/**
 * Webhook deliveries on the sandbox clock: `flush()` attempts every delivery due; failures are rescheduled
 * per the retry schedule. Finished ones move to a bounded history.
 */
export class DeliveryQueue {
  /** Pending or sending, in the order they were made. */
  private readonly waiting = new Map<string, Delivery>();
  /** The last DELIVERY_HISTORY finished deliveries, oldest first, for `resend`. */
  private readonly finished = new Map<string, Delivery>();
  /** Attempts, oldest first; trimmed to the last DELIVERY_HISTORY once it holds twice as many. */
  private attempts: DeliveryAttempt[] = [];
  private count = 0;

  constructor(
    private readonly clock: SandboxClock,
    private readonly random: SeededRandom,
    private readonly endpoints: EndpointRegistry,
    private readonly settings: {
      fetch: typeof fetch;
      timeoutMs: number;
      allowLoopback: boolean;
      autoDeliver: boolean;
      signatureClock: 'wall' | 'sandbox';
    },
  ) {}

  private readonly attemptListeners: ((attempt: DeliveryAttempt, nextRetryAt: string | null) => void)[] = [];

  /** Calls `listener` after every attempt, with when the next one is due (null when none follows). */
  onAttempt(listener: (attempt: DeliveryAttempt, nextRetryAt: string | null) => void): void {
    this.attemptListeners.push(listener);
  }

  /** Attempts started and not yet finished, so every flush() can wait for them. */
  private readonly underWay = new Set<Promise<DeliveryAttempt>>();
  private deliverySoonScheduled = false;

  /**
   * With autoDeliver, flushes on the next turn of the event loop: once for all the events one change
   * records (checked_in then out_of_service), after the change is complete. Without it, nothing.
   */
  deliverSoon(): void {
    if (!this.settings.autoDeliver || this.deliverySoonScheduled) return;
    this.deliverySoonScheduled = true;
    setTimeout(() => {
      this.deliverySoonScheduled = false;
      void this.flush();
    }, 0);
  }

  /** Queues the event for every endpoint that subscribes to it at its location. */
  enqueue(event: StoredEvent): void {
    for (const endpoint of this.endpoints.subscribers(event.envelope.type, event.locationId)) {
      this.enqueueTo(event, endpoint);
    }
  }

  /** Queues the event for one endpoint; webhook payloads keep the full customer, dob only when enabled. */
  enqueueTo(event: StoredEvent, endpoint: WebhookEndpoint): string {
    const payload = redactPayload(event.envelope, {
      fullCustomers: true,
      dateOfBirth: endpoint.includeDateOfBirth,
    });
    return this.add(event, endpoint.id, JSON.stringify(payload)).id;
  }

  /**
   * Sends every delivery due now; resolves with the attempts made, and those already under way (started by
   * autoDeliver or another flush), once all have finished.
   */
  async flush(): Promise<DeliveryAttempt[]> {
    this.clock.runDue();
    const earlier = [...this.underWay];
    const now = this.clock.nowMs();
    const sending: [Delivery, WebhookEndpoint][] = [];
    for (const delivery of this.waiting.values()) {
      if (delivery.status !== 'pending' || delivery.dueAtMs > now) continue;
      const endpoint = this.endpoints.find(delivery.endpointId);
      // An endpoint that is off or gone gets nothing more (reference section 3): no attempt, no retry.
      if (!endpoint?.enabled) {
        this.finish(delivery, 'cancelled');
        continue;
      }
      delivery.status = 'sending';
      sending.push([delivery, endpoint]);
    }
    const started = sending.map(([delivery, endpoint]) => {
      const attempt = this.attempt(delivery, endpoint);
      this.underWay.add(attempt);
      const settled = () => this.underWay.delete(attempt);
      attempt.then(settled, settled);
      return attempt;
    });
    return Promise.all([...earlier, ...started]);
  }

  /** Cancels every delivery still waiting for this endpoint (turned off or removed: reference section 3). */
  cancelFor(endpointId: string): void {
    for (const delivery of this.waiting.values()) {
      if (delivery.endpointId === endpointId && delivery.status === 'pending')
        this.finish(delivery, 'cancelled');
    }
  }

  /**
   * A new delivery of the same event to the same endpoint (new delivery id, attempt 1), due now. Works for
   * deliveries under way and the last DELIVERY_HISTORY finished ones.
   */
  resend(deliveryId: string): string {
    const original = this.waiting.get(deliveryId) ?? this.finished.get(deliveryId);
    if (!original) {
      throw new SandboxUsageError(
        `No webhook delivery ${deliveryId} (the sandbox keeps the last ${DELIVERY_HISTORY} finished ones)`,
      );
    }
    return this.add(original.event, original.endpointId, original.body).id;
  }

  /** The last DELIVERY_HISTORY attempts, oldest first. */
  attemptLog(): DeliveryAttempt[] {
    return this.attempts.slice(-DELIVERY_HISTORY);
  }

  /** How much the queue holds (for tests that it stays bounded). */
  held(): { waiting: number; finished: number; attempts: number } {
    return {
      waiting: this.waiting.size,
      finished: this.finished.size,
      attempts: Math.min(this.attempts.length, DELIVERY_HISTORY),
    };
  }

  /** Deliveries waiting for an attempt. */
  pending(): PendingDelivery[] {
    return [...this.waiting.values()]
      .filter((delivery) => delivery.status === 'pending')
      .map((delivery) => ({
        deliveryId: delivery.id,
        eventId: delivery.event.envelope.id,
        endpointId: delivery.endpointId,
        nextAttempt: delivery.attemptsMade + 1,
        dueAt: new Date(delivery.dueAtMs).toISOString(),
      }));
  }

  private add(event: StoredEvent, endpointId: string, body: string): Delivery {
    const delivery: Delivery = {
      id: `whd_${this.random.hex(12)}${(++this.count).toString(16).padStart(6, '0')}`,
      event,
      endpointId,
      body,
      attemptsMade: 0,
      status: 'pending',
      dueAtMs: this.clock.nowMs(),
    };
    this.waiting.set(delivery.id, delivery);
    this.deliverSoon();
    return delivery;
  }

  /** Moves a delivery out of the queue into the bounded history. */
  private finish(delivery: Delivery, status: 'succeeded' | 'failed' | 'cancelled'): void {
    delivery.status = status;
    this.waiting.delete(delivery.id);
    this.finished.set(delivery.id, delivery);
    if (this.finished.size > DELIVERY_HISTORY) {
      this.finished.delete(this.finished.keys().next().value!);
    }
  }

  private log(record: DeliveryAttempt): void {
    this.attempts.push(record);
    // Trimmed in batches, so keeping the log bounded costs no copy per attempt.
    if (this.attempts.length >= 2 * DELIVERY_HISTORY) this.attempts = this.attempts.slice(-DELIVERY_HISTORY);
  }

  private async attempt(delivery: Delivery, endpoint: WebhookEndpoint): Promise<DeliveryAttempt> {
    delivery.attemptsMade += 1;
    const at = this.clock.nowMs();
    const outcome = await this.send(delivery, endpoint);
    const succeeded = outcome.error === null;
    const record: DeliveryAttempt = {
      deliveryId: delivery.id,
      eventId: delivery.event.envelope.id,
      eventType: delivery.event.envelope.type,
      endpointId: delivery.endpointId,
      attempt: delivery.attemptsMade,
      at: new Date(at).toISOString(),
      status: succeeded ? 'succeeded' : 'failed',
      httpStatus: outcome.httpStatus,
      error: outcome.error,
    };
    this.log(record);
    if (succeeded) {
      this.finish(delivery, 'succeeded');
      [endpoint.consecutiveFailures, endpoint.lastSuccessAtMs] = [0, at];
    } else {
      this.scheduleRetry(delivery, at);
      this.noteFailure(endpoint, at);
    }
    const nextRetryAt = delivery.status === 'pending' ? new Date(delivery.dueAtMs).toISOString() : null;
    for (const listener of this.attemptListeners) listener(record, nextRetryAt);
    return record;
  }

  private scheduleRetry(delivery: Delivery, at: number): void {
    if (delivery.status !== 'sending') return;
    if (delivery.attemptsMade >= MAX_ATTEMPTS) {
      this.finish(delivery, 'failed');
      return;
    }
    delivery.status = 'pending';
    delivery.dueAtMs = at + RETRY_DELAYS_MS[delivery.attemptsMade - 1]!;
  }

  /** 30 failures in a row and no success for 24 hours turn the endpoint off and cancel its retries. */
  private noteFailure(endpoint: WebhookEndpoint, at: number): void {
    endpoint.consecutiveFailures += 1;
    const quietSince = endpoint.lastSuccessAtMs ?? endpoint.createdAtMs;
    if (endpoint.consecutiveFailures >= DISABLE_AFTER_FAILURES && at - quietSince >= DISABLE_AFTER_MS) {
      endpoint.enabled = false;
      this.cancelFor(endpoint.id);
    }
  }

  private async send(
    delivery: Delivery,
    endpoint: WebhookEndpoint,
  ): Promise<{ httpStatus: number | null; error: string | null }> {
    const refusal = refuseEndpointUrl(endpoint.url, this.settings.allowLoopback);
    if (refusal) return { httpStatus: null, error: `url_refused: ${refusal}` };
    const outcome = await sendSignedDelivery({
      url: endpoint.url,
      body: delivery.body,
      eventType: delivery.event.envelope.type,
      eventId: delivery.event.envelope.id,
      deliveryId: delivery.id,
      attempt: delivery.attemptsMade,
      // Signed with every current secret of the endpoint, at the real time (a receiver checks it against
      // its own clock) unless the sandbox's clock is asked for.
      secret: endpoint.secrets,
      timestamp: Math.floor(
        (this.settings.signatureClock === 'wall' ? Date.now() : this.clock.nowMs()) / 1000,
      ),
      userAgent: 'shop-mgmt-sandbox-webhooks',
      timeoutMs: this.settings.timeoutMs,
      fetch: this.settings.fetch,
      ...(endpoint.authHeader
        ? { extraHeaders: { [endpoint.authHeader.name]: endpoint.authHeader.value } }
        : {}),
    });
    return { httpStatus: outcome.status, error: outcome.error };
  }
}
