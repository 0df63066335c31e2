// Tracing without a dependency: every call is published on node:diagnostics_channel, where the runtime has it
// (Node, Bun, Deno, Workers with nodejs_compat), for an APM agent or OpenTelemetry code to turn into spans.
// It is found through process.getBuiltinModule at first use, as src/webhooks/hmac.ts finds node:crypto, so a
// bundle for a runtime without it never resolves the module and nothing is published there.

/** The name of the TracingChannel of whole calls: `tracing:shop-mgmt:request:start` and so on. */
export const REQUEST_CHANNEL = 'shop-mgmt:request';
/** The name of the TracingChannel of each attempt of a call (children of the call). */
export const ATTEMPT_CHANNEL = 'shop-mgmt:request:attempt';

/** The little of a TracingChannel the transport uses. */
export interface TracingChannelLike<Message extends object> {
  readonly hasSubscribers: boolean;
  tracePromise<T>(fn: () => Promise<T>, context: Message): Promise<T>;
}

/**
 * The message of one call on `shop-mgmt:request` (start, end, asyncStart, asyncEnd, error). The transport
 * fills `status`, `attempts`, `elapsedMs` (and the channel `result` or `error`) as the call ends.
 */
export interface RequestTraceMessage {
  /** The operation id, e.g. `range.reservations.create`. */
  readonly operation: string;
  /** The HTTP method. */
  readonly method: string;
  /** The path template, e.g. `/v1/range/reservations/{id}`. */
  readonly path: string;
  /** The POST's Idempotency-Key; null for other methods. */
  readonly idempotencyKey: string | null;
  /** The client's `baseUrl` (its host and port are OpenTelemetry's `server.address` and `server.port`). */
  readonly baseUrl: string;
  /** `X-RateLimit-Remaining` of the last response that had it, as sent; null until then. */
  rateLimitRemaining: string | null;
  /** The status of the last response; null while none has arrived, or when the call ended without one. */
  status: number | null;
  /** Attempts made so far. */
  attempts: number;
  /** Milliseconds from the call's start, set when it ends. */
  elapsedMs: number | null;
}

/** The message of one attempt on `shop-mgmt:request:attempt`. */
export interface AttemptTraceMessage {
  /** The call this attempt belongs to (the same object as published on `shop-mgmt:request`). */
  readonly call: RequestTraceMessage;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Milliseconds this attempt waited for the client's throttle before it was sent (0 without one). */
  readonly throttleWaitMs: number;
  /** The attempt's response status; null until it arrives or when it never does. */
  status: number | null;
}

interface DiagnosticsChannelModule {
  tracingChannel?: <M extends object>(name: string) => TracingChannelLike<M>;
}

interface TracingChannels {
  readonly request: TracingChannelLike<RequestTraceMessage>;
  readonly attempt: TracingChannelLike<AttemptTraceMessage>;
}

let channels: TracingChannels | null | undefined;

/** The SDK's two tracing channels, or null where the runtime has no `node:diagnostics_channel`. */
export function tracingChannels(): TracingChannels | null {
  if (channels !== undefined) return channels;
  channels = null;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const module = proc?.getBuiltinModule?.('node:diagnostics_channel') as
      | DiagnosticsChannelModule
      | undefined;
    if (typeof module?.tracingChannel === 'function') {
      const request = module.tracingChannel<RequestTraceMessage>(REQUEST_CHANNEL);
      const attempt = module.tracingChannel<AttemptTraceMessage>(ATTEMPT_CHANNEL);
      // Node before 20.13 has TracingChannel without `hasSubscribers`: publishing there would cost every call.
      if (typeof request.hasSubscribers === 'boolean') channels = { request, attempt };
    }
  } catch {
    channels = null;
  }
  return channels;
}
