import type { SandboxClock } from '../clock.js';
import { SandboxUsageError } from '../errors.js';
import { secretHex } from '../random.js';
import { refuseEndpointUrl } from './url-rules.js';

/** What `sandbox.webhooks.addEndpoint` accepts (reference section 6, "Endpoint configuration"). */
export interface WebhookEndpointOptions {
  /** https on a public address; the sandbox also allows loopback (http or https) with allowLoopback. */
  url: string;
  /** Event types to send, e.g. `['range.reservation.booked']`; `['*']` for every type. */
  types: readonly string[];
  /** Only events at these location ids (events without a location are always sent). */
  locations?: readonly number[];
  /**
   * The signing secret, e.g. the one your receiver is configured with; it must begin `whsec_` as the
   * service's do. A new random `whsec_` secret when omitted.
   */
  secret?: string;
  /** Keep date_of_birth in payloads. @default false */
  includeDateOfBirth?: boolean;
  /** A custom header sent on every delivery, e.g. `{ name: 'Authorization', value: 'Bearer abc' }`. */
  authHeader?: { name: string; value: string };
}

/** An endpoint as the sandbox keeps it. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly types: ReadonlySet<string>;
  readonly locations: ReadonlySet<number> | null;
  secrets: string[];
  readonly includeDateOfBirth: boolean;
  readonly authHeader: { name: string; value: string } | null;
  enabled: boolean;
  consecutiveFailures: number;
  lastSuccessAtMs: number | null;
  readonly createdAtMs: number;
}

const MAX_ENDPOINTS = 20;

/**
 * A secret the test gives, held to the reference's shape (section 6: each endpoint's secret begins
 * whsec_), so a blank one is refused here rather than failing every delivery when it is signed.
 */
export function checkSecret(secret: unknown): string {
  if (typeof secret !== 'string' || !/^whsec_\S+$/.test(secret)) {
    throw new SandboxUsageError('A webhook secret must be a string beginning whsec_ with no spaces');
  }
  return secret;
}

/** The shop's webhook endpoints (up to 20). */
export class EndpointRegistry {
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  private count = 0;

  constructor(
    private readonly clock: SandboxClock,
    private readonly allowLoopback: boolean,
  ) {}

  add(options: WebhookEndpointOptions): { id: string; secret: string } {
    if (this.endpoints.size >= MAX_ENDPOINTS) {
      throw new SandboxUsageError(`A shop can have at most ${MAX_ENDPOINTS} webhook endpoints`);
    }
    const refusal = refuseEndpointUrl(options.url, this.allowLoopback);
    if (refusal) throw new SandboxUsageError(`Webhook endpoint URL ${refusal}`);
    if (!Array.isArray(options.types) || options.types.length === 0) {
      throw new SandboxUsageError('A webhook endpoint needs at least one event type (or "*")');
    }
    if (options.authHeader && !/^[A-Za-z0-9-]+$/.test(options.authHeader.name)) {
      throw new SandboxUsageError('authHeader.name must be a header name');
    }
    const secret = options.secret === undefined ? `whsec_${secretHex(24)}` : checkSecret(options.secret);
    const endpoint: WebhookEndpoint = {
      id: `we_${++this.count}`,
      url: options.url,
      types: new Set(options.types),
      locations: options.locations ? new Set(options.locations) : null,
      secrets: [secret],
      includeDateOfBirth: options.includeDateOfBirth ?? false,
      authHeader: options.authHeader ?? null,
      enabled: true,
      consecutiveFailures: 0,
      lastSuccessAtMs: null,
      createdAtMs: this.clock.nowMs(),
    };
    this.endpoints.set(endpoint.id, endpoint);
    return { id: endpoint.id, secret };
  }

  get(id: string): WebhookEndpoint {
    const endpoint = this.endpoints.get(id);
    if (!endpoint) throw new SandboxUsageError(`No webhook endpoint ${id}`);
    return endpoint;
  }

  /** The endpoint, or undefined once it is removed. */
  find(id: string): WebhookEndpoint | undefined {
    return this.endpoints.get(id);
  }

  remove(id: string): void {
    this.get(id);
    this.endpoints.delete(id);
  }

  all(): WebhookEndpoint[] {
    return [...this.endpoints.values()];
  }

  /** Enabled endpoints that want this event type at this location. */
  subscribers(type: string, locationId: number | null): WebhookEndpoint[] {
    return this.all().filter(
      (endpoint) =>
        endpoint.enabled &&
        (endpoint.types.has(type) || endpoint.types.has('*')) &&
        (endpoint.locations === null || locationId === null || endpoint.locations.has(locationId)),
    );
  }

  /** Whether any enabled endpoint subscribes to the type at all (reference section 4, feed rule 2). */
  anySubscribes(type: string): boolean {
    return this.all().some(
      (endpoint) => endpoint.enabled && (endpoint.types.has(type) || endpoint.types.has('*')),
    );
  }
}
