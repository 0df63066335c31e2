// Calls are published on node:diagnostics_channel, where the runtime has it, for APM spans.

/** The TracingChannel of whole calls (`tracing:shop-mgmt:request:start`, ...). */
export const REQUEST_CHANNEL = 'shop-mgmt:request';
/** The TracingChannel of each attempt. */
export const ATTEMPT_CHANNEL = 'shop-mgmt:request:attempt';

/** The little of a TracingChannel the transport uses. */
export interface TracingChannelLike<Message extends object> {
  readonly hasSubscribers: boolean;
  tracePromise<T>(fn: () => Promise<T>, context: Message): Promise<T>;
}

/** The message of one call on `shop-mgmt:request`; `status`, `attempts` and `elapsedMs` are set as it ends. */
export interface RequestTraceMessage {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  /** Null unless a POST. */
  readonly idempotencyKey: string | null;
  readonly baseUrl: string;
  /** `X-RateLimit-Remaining` of the last response with it. */
  rateLimitRemaining: string | null;
  /** The last response's status. */
  status: number | null;
  attempts: number;
  elapsedMs: number | null;
}

/** The message of one attempt on `shop-mgmt:request:attempt`. */
export interface AttemptTraceMessage {
  readonly call: RequestTraceMessage;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** ms waited for the throttle. */
  readonly throttleWaitMs: number;
  /** Null until a response arrives. */
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
      // Node before 20.13 lacks `hasSubscribers`: publishing there would cost every call.
      if (typeof request.hasSubscribers === 'boolean') channels = { request, attempt };
    }
  } catch {
    channels = null;
  }
  return channels;
}
