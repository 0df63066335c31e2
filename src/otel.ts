/**
 * OpenTelemetry spans and metrics from the SDK's diagnostics channels: `instrumentShop()`.
 *
 * @module shop-mgmt/otel
 */
// `@opentelemetry/api` is an optional peer. Label sets are made once per operation and host. Never recorded:
// a key or secret, a query value, a body, an id, the Idempotency-Key, or a filled path (the route template is).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  type Attributes,
  context,
  type Meter,
  type MeterProvider,
  metrics,
  type ObservableResult,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import {
  ATTEMPT_CHANNEL,
  type AttemptTraceMessage,
  REQUEST_CHANNEL,
  type RequestTraceMessage,
} from './core/observe/tracing.js';
import { SYNC_CHANNEL, type SyncDiagnosticsMessage } from './sync/engine/diagnostics.js';
import {
  INBOX_CHANNEL,
  type InboxDiagnosticsMessage,
  type InboxDiagnosticsSource,
} from './sync/inbox/diagnostics.js';
import { VERSION } from './version.js';
import { WEBHOOK_CHANNEL, type WebhookDiagnosticsMessage } from './webhooks/diagnostics.js';

export { ATTEMPT_CHANNEL, REQUEST_CHANNEL } from './core/observe/tracing.js';
export { SYNC_CHANNEL, type SyncDiagnosticsMessage } from './sync/engine/diagnostics.js';
export { INBOX_CHANNEL, type InboxDiagnosticsMessage } from './sync/inbox/diagnostics.js';
export { WEBHOOK_CHANNEL, type WebhookDiagnosticsMessage } from './webhooks/diagnostics.js';

/** What {@link instrumentShop} records with; each defaults to the global one. */
export interface InstrumentShopOptions {
  /** Where the spans go. @default trace.getTracerProvider() */
  readonly tracerProvider?: TracerProvider;
  /** Where the metrics go. @default metrics.getMeterProvider() */
  readonly meterProvider?: MeterProvider;
}

type Listener = (message: unknown, name: string | symbol) => void;
type Failed = { error?: unknown };
type Server = { readonly address: string; readonly port: number };

/** What one operation on one API host records with, made on its first call. */
interface Route {
  readonly server: Server;
  /** The attempt spans' name. */
  readonly attemptName: string;
  /** Attributes of every span of the call. */
  readonly base: Attributes;
  /** The call span's options. */
  readonly call: SpanOptions;
  /** A first attempt's span options. */
  readonly firstAttempt: SpanOptions;
  /** `shop.operation` alone (throttle waits). */
  readonly operation: Attributes;
  /** A call's labels when it succeeded. */
  readonly ok: Attributes;
  /** Labels of an attempt answered without an error, by status. */
  readonly answered: (status: number) => Attributes;
}

/** A call in flight. */
interface CallState {
  readonly span: Span;
  readonly route: Route;
  lastFailure: string;
}

interface AttemptState {
  readonly span: Span;
  readonly route: Route;
  readonly started: number;
}

const SCOPE = 'shop-mgmt';
/** Buckets (seconds) for HTTP durations: OpenTelemetry's advice for `http.client.request.duration`. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Buckets (seconds) for throttle waits and handler runs, which run longer than one exchange. */
const WAIT_BUCKETS = [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Records every client, inbox and engine of the process as OpenTelemetry spans and metrics
 * (docs/observability.md); gives the function that stops it.
 * @example
 * import { instrumentShop } from 'shop-mgmt/otel';
 * const stop = instrumentShop(); // the global tracer and meter providers
 * // ... later, at shutdown:
 * stop();
 */
export function instrumentShop(options: InstrumentShopOptions = {}): () => void {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
  const { seconds, counter, gauge } = instruments(meter);

  // A call's count is its duration histogram's count: one record a call.
  const callDuration = seconds(
    'shop.client.call.duration',
    'Duration of each SDK call, its retries and waits included, by operation and outcome; its count is the calls.',
    HTTP_BUCKETS,
  );
  const attemptDuration = seconds(
    'http.client.request.duration',
    'Duration of each HTTP attempt to the Shop Management API.',
    HTTP_BUCKETS,
  );
  const retries = counter(
    'shop.client.retries',
    'Attempts after the first, by operation and the reason of the retry.',
    '{retry}',
  );
  const throttleWait = seconds(
    'shop.client.throttle.wait',
    "Time an attempt waited for the client's throttle before it was sent.",
    WAIT_BUCKETS,
  );
  const rateLimitRemaining = gauge(
    'shop.rate_limit.remaining',
    'X-RateLimit-Remaining of the last answer from each API host: requests left this minute.',
    '{request}',
  );
  const inboxEvents = counter(
    'shop.inbox.events',
    'Inbox events written and run outcomes: added, duplicate, replayed, done, retry, dead, lost.',
    '{event}',
  );
  const inboxDepth = meter.createUpDownCounter('shop.inbox.depth', {
    description: 'Events written (or replayed) and not yet done or dead: sum it over every process.',
    unit: '{event}',
  });
  const deadLetters = counter(
    'shop.inbox.dead_letters',
    'Events moved to the dead letters after their last attempt.',
    '{event}',
  );
  const processing = seconds(
    'shop.inbox.processing.duration',
    "Time of each inbox handler run (with the SQL stores, its transaction's), by outcome.",
    WAIT_BUCKETS,
  );
  const oldestPending = gauge(
    'shop.inbox.oldest_pending.age',
    "Age of each inbox's oldest pending event (waiting for a worker or for its retry).",
    's',
  );
  const syncRows = counter(
    'shop.sync.rows_written',
    'Rows the sync engine wrote, by shop and phase (backfill, repair, events, webhook).',
    '{row}',
  );
  const syncRepaired = counter(
    'shop.sync.rows_repaired',
    'Rows a repair pass wrote that no event had brought, by shop.',
    '{row}',
  );
  const syncLag = gauge(
    'shop.sync.lag',
    "Seconds since each shop's feed pass last reached the feed's end.",
    's',
  );
  const eventLag = seconds(
    'shop.sync.event.lag',
    "Seconds from an event's created_at to its rows being written (webhooks, inbox workers).",
    WAIT_BUCKETS,
  );
  const verifications = counter(
    'shop.webhooks.verifications',
    'Webhook deliveries verified, by outcome: ok, or the reason of the refusal.',
    '{delivery}',
  );

  // Label sets made once per value.
  const inboxLabels = made((outcome: string): Attributes => ({ 'shop.inbox.outcome': outcome }));
  const webhookLabels = made((outcome: string): Attributes => ({ 'shop.webhooks.outcome': outcome }));
  const shopLabels = made((shop: string) => ({
    shop: { 'shop.sync.shop': shop } as Attributes,
    phase: made((phase: string): Attributes => ({ 'shop.sync.shop': shop, 'shop.sync.phase': phase })),
  }));
  const hosts = made((baseUrl: string) => {
    const server = serverOf(baseUrl);
    return made((_operation: string, call: RequestTraceMessage) => routeOf(server, call));
  });
  const route = (call: RequestTraceMessage): Route => hosts(call.baseUrl)(call.operation, call);

  const calls = new WeakMap<RequestTraceMessage, CallState>();
  const attempts = new WeakMap<AttemptTraceMessage, AttemptState>();
  const remainingByHost = new Map<string, { readonly attributes: Attributes; value: number }>();
  // Held weakly: a dropped inbox is not kept alive by the gauge.
  const inboxes = new Set<WeakRef<InboxDiagnosticsSource>>();
  const seenInboxes = new WeakSet<InboxDiagnosticsSource>();
  const caughtUpAt = new Map<string, number>();

  const onRateLimit = (result: ObservableResult) => {
    for (const { attributes, value } of remainingByHost.values()) result.observe(value, attributes);
  };
  const onOldest = async (result: ObservableResult) => {
    const now = Date.now();
    await Promise.all(
      [...inboxes].map(async (ref) => {
        const inbox = ref.deref();
        if (!inbox) {
          inboxes.delete(ref);
          return;
        }
        try {
          const [oldest] = await inbox.list('pending', 1);
          result.observe(oldest ? Math.max(0, (now - oldest.receivedAt) / 1000) : 0);
        } catch {
          // A store that cannot answer now reports nothing this time.
        }
      }),
    );
  };
  const onLag = (result: ObservableResult) => {
    const now = Date.now();
    for (const [shop, at] of caughtUpAt) result.observe((now - at) / 1000, shopLabels(shop).shop);
  };
  const callbacks = [
    [rateLimitRemaining, onRateLimit],
    [oldestPending, onOldest],
    [syncLag, onLag],
  ] as const;
  for (const [instrument, callback] of callbacks) instrument.addCallback(callback);

  const listeners: Record<string, Listener> = {
    [`tracing:${REQUEST_CHANNEL}:start`]: (message) => {
      const call = message as RequestTraceMessage;
      const at = route(call);
      calls.set(call, { span: tracer.startSpan(call.operation, at.call), route: at, lastFailure: 'unknown' });
    },
    [`tracing:${REQUEST_CHANNEL}:asyncEnd`]: (message) => {
      const call = message as RequestTraceMessage & Failed;
      const state = calls.get(call);
      calls.delete(call);
      const at = state?.route ?? route(call);
      const errorType = failureOf(call, call.status);
      const remaining = remainingOf(call);
      if (state) {
        state.span.setAttribute('shop.attempts', call.attempts);
        if (remaining !== null) state.span.setAttribute('shop.rate_limit.remaining', remaining);
        finish(state.span, call.status, errorType);
      }
      if (call.elapsedMs !== null) {
        const labels =
          errorType === null
            ? at.ok
            : { 'shop.operation': call.operation, 'shop.outcome': 'error', 'error.type': errorType };
        callDuration.record(call.elapsedMs / 1000, labels);
      }
      if (remaining !== null) {
        const host = remainingByHost.get(at.server.address);
        if (host) host.value = remaining;
        else
          remainingByHost.set(at.server.address, {
            attributes: { 'server.address': at.server.address },
            value: remaining,
          });
      }
    },
    [`tracing:${ATTEMPT_CHANNEL}:start`]: (message) => {
      const attempt = message as AttemptTraceMessage;
      const state = calls.get(attempt.call);
      const at = state?.route ?? route(attempt.call);
      // Waits under a millisecond are the throttle's bookkeeping, not a wait for a slot.
      const waitedMs = Math.round(attempt.throttleWaitMs);
      let options = at.firstAttempt;
      if (attempt.attempt > 1 || waitedMs > 0) {
        const attributes: Attributes = { ...at.base, 'shop.attempt': attempt.attempt };
        if (attempt.attempt > 1) {
          const reason = state?.lastFailure ?? 'unknown';
          attributes['http.request.resend_count'] = attempt.attempt - 1;
          attributes['shop.retry.reason'] = reason;
          retries.add(1, { 'shop.operation': attempt.call.operation, 'shop.retry.reason': reason });
        }
        if (waitedMs > 0) attributes['shop.throttle.wait_ms'] = waitedMs;
        options = { kind: SpanKind.CLIENT, attributes };
      }
      // Only clients with a throttle wait: without one nothing is recorded.
      if (attempt.throttleWaitMs > 0) throttleWait.record(attempt.throttleWaitMs / 1000, at.operation);
      const parent = state ? trace.setSpan(context.active(), state.span) : context.active();
      attempts.set(attempt, {
        span: tracer.startSpan(at.attemptName, options, parent),
        route: at,
        started: performance.now(),
      });
    },
    [`tracing:${ATTEMPT_CHANNEL}:asyncEnd`]: (message) => {
      const attempt = message as AttemptTraceMessage & Failed;
      const state = attempts.get(attempt);
      attempts.delete(attempt);
      if (!state) return;
      const failed = 'error' in attempt && attempt.error !== undefined;
      const status =
        attempt.status ?? (failed ? statusOf(attempt.error) : null) ?? (failed ? null : attempt.call.status);
      const errorType = failureOf(attempt, status);
      if (errorType !== null) {
        const call = calls.get(attempt.call);
        if (call) call.lastFailure = errorType;
      }
      finish(state.span, status, errorType);
      const { route: at } = state;
      const labels =
        errorType === null && status !== null
          ? at.answered(status)
          : httpLabels(at.base, at.server, status, errorType);
      attemptDuration.record((performance.now() - state.started) / 1000, labels);
    },
    [INBOX_CHANNEL]: (message) => {
      const event = message as InboxDiagnosticsMessage;
      if (!seenInboxes.has(event.inbox)) {
        seenInboxes.add(event.inbox);
        inboxes.add(new WeakRef(event.inbox));
      }
      if (event.type === 'settled') {
        const labels = inboxLabels(event.outcome);
        inboxEvents.add(1, labels);
        processing.record(event.durationMs / 1000, labels);
        if (event.outcome === 'done' || event.outcome === 'dead') inboxDepth.add(-1);
        if (event.outcome === 'dead') deadLetters.add(1);
        return;
      }
      inboxEvents.add(1, inboxLabels(event.type));
      if (event.type !== 'duplicate') inboxDepth.add(1);
    },
    [SYNC_CHANNEL]: (message) => {
      const event = message as SyncDiagnosticsMessage;
      const labels = shopLabels(event.shop);
      if (event.type === 'event') {
        syncRows.add(event.written, labels.phase('webhook'));
        const created = Date.parse(event.createdAt);
        if (Number.isFinite(created))
          eventLag.record(Math.max(0, (Date.now() - created) / 1000), labels.shop);
        return;
      }
      syncRows.add(event.written, labels.phase(event.phase));
      if (event.phase === 'repair') syncRepaired.add(event.written, labels.shop);
      if (event.phase === 'events' && event.done) caughtUpAt.set(event.shop, Date.now());
    },
    [WEBHOOK_CHANNEL]: (message) => {
      verifications.add(1, webhookLabels((message as WebhookDiagnosticsMessage).outcome));
    },
  };

  for (const [name, listener] of Object.entries(listeners)) subscribe(name, listener);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    for (const [name, listener] of Object.entries(listeners)) unsubscribe(name, listener);
    for (const [instrument, callback] of callbacks) instrument.removeCallback(callback);
  };
}

/** The instrument shapes this entry makes. */
function instruments(meter: Meter) {
  return {
    seconds: (name: string, description: string, buckets: readonly number[]) =>
      meter.createHistogram(name, {
        description,
        unit: 's',
        advice: { explicitBucketBoundaries: [...buckets] },
      }),
    counter: (name: string, description: string, unit: string) =>
      meter.createCounter(name, { description, unit }),
    gauge: (name: string, description: string, unit: string) =>
      meter.createObservableGauge(name, { description, unit }),
  };
}

/** `make(key, with_)` made once per key and kept, up to 1,000 keys (then made each time). */
function made<K, V, A = void>(make: (key: K, with_: A) => V): (key: K, with_: A) => V {
  const values = new Map<K, V>();
  return (key, with_) => {
    let value = values.get(key);
    if (value === undefined) {
      value = make(key, with_);
      if (values.size < 1000) values.set(key, value);
    }
    return value;
  };
}

/** What every call of an operation to a host records with. */
function routeOf(server: Server, call: RequestTraceMessage): Route {
  // Never the path with its ids, the key or the query: `call.path` is the route template.
  const base: Attributes = {
    'http.request.method': call.method,
    'server.address': server.address,
    'server.port': server.port,
    'url.template': call.path,
    'shop.operation': call.operation,
  };
  return {
    server,
    attemptName: `${call.method} ${call.path}`,
    base,
    call: { kind: SpanKind.INTERNAL, attributes: base },
    firstAttempt: { kind: SpanKind.CLIENT, attributes: { ...base, 'shop.attempt': 1 } },
    operation: { 'shop.operation': call.operation },
    ok: { 'shop.operation': call.operation, 'shop.outcome': 'ok' },
    answered: made((status: number) => httpLabels(base, server, status, null)),
  };
}

/** `http.client.request.duration`'s labels, as OpenTelemetry's HTTP client conventions name them. */
function httpLabels(
  base: Attributes,
  server: Server,
  status: number | null,
  errorType: string | null,
): Attributes {
  const labels: Attributes = {
    'http.request.method': base['http.request.method'],
    'server.address': server.address,
    'server.port': server.port,
    'url.template': base['url.template'],
  };
  if (status !== null) labels['http.response.status_code'] = status;
  if (errorType !== null) labels['error.type'] = errorType;
  return labels;
}

/** Ends a call's or an attempt's span with its status and, when it failed, its error type. */
function finish(span: Span, status: number | null, errorType: string | null): void {
  if (status !== null) span.setAttribute('http.response.status_code', status);
  if (errorType !== null) {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
  }
  span.end();
}

/** The error type of a call or attempt that ended with an error (the channel's `error`), else null. */
function failureOf(message: Failed, status: number | null): string | null {
  return 'error' in message && message.error !== undefined ? errorTypeOf(message.error, status) : null;
}

/** `server.address` and `server.port` of a client's `baseUrl`. */
function serverOf(baseUrl: string): Server {
  try {
    const url = new URL(baseUrl);
    const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
    return { address: url.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return { address: 'unknown', port: 443 };
  }
}

/** `X-RateLimit-Remaining` as a number, or null when missing or unreadable. */
function remainingOf(call: RequestTraceMessage): number | null {
  const text = call.rateLimitRemaining;
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function statusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : null;
}

/** `error.type` per OpenTelemetry's HTTP conventions: the status, else the error's class name. */
function errorTypeOf(error: unknown, status: number | null): string {
  if (status !== null && status >= 400) return String(status);
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && /^[A-Za-z][\w.]{0,63}$/.test(name) ? name : '_OTHER';
}
