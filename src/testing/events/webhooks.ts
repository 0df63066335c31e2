import type { SandboxClock } from '../clock.js';
import { SandboxUsageError } from '../errors.js';
import { secretHex } from '../random.js';
import type { DeliveryAttempt, DeliveryQueue, PendingDelivery } from './delivery.js';
import { checkSecret, type EndpointRegistry, type WebhookEndpointOptions } from './endpoints.js';
import type { EventLog } from './log.js';

/** A webhook endpoint as `sandbox.webhooks.endpoints()` shows it (the secret is not repeated). */
export interface SandboxWebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly types: readonly string[];
  readonly locations: readonly number[] | null;
  readonly includeDateOfBirth: boolean;
  readonly enabled: boolean;
  readonly consecutiveFailures: number;
}

/** The part of the sandbox's world the webhook settings work on. */
interface WebhooksWorld {
  readonly clock: SandboxClock;
  readonly endpoints: EndpointRegistry;
  readonly events: EventLog;
  readonly deliveries: DeliveryQueue;
}

/**
 * The shop owner's webhook settings and the delivery log. Deliveries run on the sandbox clock: call
 * `flush()` to send what is due, and `clock.advance(...)` then `flush()` again for retries.
 */
export class SandboxWebhooks {
  /** @internal */
  constructor(private readonly world: WebhooksWorld) {}

  /**
   * Adds an endpoint (at most 20); refuses, with a SandboxUsageError, the URLs the reference refuses (not
   * https, credentials, private or metadata addresses). Loopback passes while `allowLoopback` is on.
   */
  addEndpoint(options: WebhookEndpointOptions): { id: string; secret: string } {
    return this.world.endpoints.add(options);
  }

  /**
   * Removes an endpoint: nothing more is sent to it, and its pending deliveries and retries are cancelled.
   * Throws a SandboxUsageError for an id the shop does not have.
   */
  removeEndpoint(id: string): void {
    this.world.endpoints.remove(id);
    this.world.deliveries.cancelFor(id);
  }

  /**
   * Turns an endpoint on or off, as the owner can (one turned off after failures can come back on).
   * Turning it off cancels its pending retries (reference section 3); turning it back on does not revive
   * them, use `resend` for those.
   */
  setEnabled(id: string, enabled: boolean): void {
    const endpoint = this.world.endpoints.get(id);
    endpoint.enabled = enabled;
    if (enabled) endpoint.consecutiveFailures = 0;
    else this.world.deliveries.cancelFor(id);
  }

  /**
   * Starts a secret rotation: deliveries carry a v1 for the new and the old secret until the grace period
   * (0 to 168 hours, default 24) ends on the sandbox clock. Returns the new secret (`secret`, which must
   * begin `whsec_`, or a new random one).
   */
  rotateSecret(id: string, options: { secret?: string; graceHours?: number } = {}): string {
    const endpoint = this.world.endpoints.get(id);
    const grace = options.graceHours ?? 24;
    if (!(grace >= 0 && grace <= 168)) throw new SandboxUsageError('graceHours must be between 0 and 168');
    const next = options.secret === undefined ? `whsec_${secretHex(24)}` : checkSecret(options.secret);
    const previous = endpoint.secrets[0]!;
    endpoint.secrets = grace > 0 ? [next, previous] : [next];
    if (grace > 0) {
      this.world.clock.schedule(this.world.clock.nowMs() + grace * 3_600_000, () => {
        endpoint.secrets = endpoint.secrets.filter((secret) => secret !== previous);
      });
    }
    return next;
  }

  /**
   * What Send test does: a ping event (data.object.object = ping) to this endpoint only, on the next
   * flush. It is not part of the event feed. Returns the delivery id.
   */
  sendTest(id: string): string {
    const endpoint = this.world.endpoints.get(id);
    return this.world.deliveries.enqueueTo(
      this.world.events.build('ping', { object: 'ping' }, null),
      endpoint,
    );
  }

  /** The shop's endpoints in the order they were added, with whether each is on and its failures in a row. */
  endpoints(): SandboxWebhookEndpoint[] {
    return this.world.endpoints.all().map((endpoint) => ({
      id: endpoint.id,
      url: endpoint.url,
      types: [...endpoint.types],
      locations: endpoint.locations ? [...endpoint.locations] : null,
      includeDateOfBirth: endpoint.includeDateOfBirth,
      enabled: endpoint.enabled,
      consecutiveFailures: endpoint.consecutiveFailures,
    }));
  }

  /** Sends every delivery due now (first tries and retries whose time has come); resolves with the attempts. */
  flush(): Promise<DeliveryAttempt[]> {
    return this.world.deliveries.flush();
  }

  /** The attempts made so far, oldest first: the last 1,000, so a sandbox serving for days stays small. */
  deliveries(): DeliveryAttempt[] {
    return this.world.deliveries.attemptLog();
  }

  /** Deliveries waiting for their next attempt, with when it is due. */
  pending(): PendingDelivery[] {
    return this.world.deliveries.pending();
  }

  /**
   * Delivers the same event again as a new delivery (new Service-Delivery-Id, attempt 1) on the next flush.
   * Takes a delivery still under way or one of the last 1,000 finished.
   */
  resend(deliveryId: string): string {
    return this.world.deliveries.resend(deliveryId);
  }
}
