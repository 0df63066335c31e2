/**
 * OpenTelemetry spans and metrics from the SDK's diagnostics channels: `instrumentShop()`.
 *
 * @module shop-mgmt/otel
 */
// `shop-mgmt/otel`: subscribes to the channels the transport (`shop-mgmt:request`, `shop-mgmt:request:attempt`),
// the inbox (`shop-mgmt:inbox`) and the sync engine (`shop-mgmt:sync`) publish on, and turns them into spans
// and metrics through `@opentelemetry/api` (an optional peer: the partner brings the SDK and the exporter).
// Nothing here is loaded by any other entry, and nothing is published on a channel nobody subscribes to.
// Never recorded: the API key, a webhook secret, a query value, a body, an event or record id, the
// Idempotency-Key, or a path with its ids in (the route template `url.template` is recorded instead).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  type Attributes,
  context,
  type MeterProvider,
  metrics,
  type ObservableResult,
  type Span,
  SpanKind,
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

export { ATTEMPT_CHANNEL, REQUEST_CHANNEL } from './core/observe/tracing.js';
export { SYNC_CHANNEL, type SyncDiagnosticsMessage } from './sync/engine/diagnostics.js';
export { INBOX_CHANNEL, type InboxDiagnosticsMessage } from './sync/inbox/diagnostics.js';

/** What {@link instrumentShop} records with; each defaults to the global one `@opentelemetry/api` holds. */
export interface InstrumentShopOptions {
  /** Where the spans go. @default trace.getTracerProvider() */
  readonly tracerProvider?: TracerProvider;
  /** Where the metrics go. @default metrics.getMeterProvider() */
  readonly meterProvider?: MeterProvider;
}

type Listener = (message: unknown, name: string | symbol) => void;
type Failed = { error?: unknown };

const SCOPE = 'shop-mgmt';
/** Buckets (seconds) for HTTP durations: OpenTelemetry's advice for `http.client.request.duration`. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Buckets (seconds) for throttle waits and handler runs, which run longer than one exchange. */
const WAIT_BUCKETS = [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Turns the SDK's calls, inbox and sync engine into OpenTelemetry spans and metrics, for every client, inbox
 * and engine of the process; gives the function that stops it. Spans: one `INTERNAL` span per call, named
 * after its operation (`range.reservations.create`), with one `CLIENT` span per HTTP attempt under it
 * (`POST /v1/range/reservations`), attributed as OpenTelemetry's HTTP client conventions say. Metrics: see
 * docs/observability.md.
 *
 * @example
 * import { instrumentShop } from 'shop-mgmt/otel';
 * const stop = instrumentShop(); // the global tracer and meter providers
 * // ... later, at shutdown:
 * stop();
 */
export function instrumentShop(options: InstrumentShopOptions = {}): () => void {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);

  const attemptDuration = meter.createHistogram('http.client.request.duration', {
    description: 'Duration of each HTTP attempt to the Shop Management API.',
    unit: 's',
    advice: { explicitBucketBoundaries: HTTP_BUCKETS },
  });
  const callDuration = meter.createHistogram('shop.client.call.duration', {
    description: 'Duration of each SDK call, its retries and waits included, by operation and outcome.',
    unit: 's',
    advice: { explicitBucketBoundaries: HTTP_BUCKETS },
  });
  const calls = meter.createCounter('shop.client.calls', {
    description: 'SDK calls, by operation and outcome.',
    unit: '{call}',
  });
  const retries = meter.createCounter('shop.client.retries', {
    description: 'Attempts after the first, by operation and the reason of the retry.',
    unit: '{retry}',
  });
  const throttleWait = meter.createHistogram('shop.client.throttle.wait', {
    description: "Time an attempt waited for the client's throttle before it was sent.",
    unit: 's',
    advice: { explicitBucketBoundaries: WAIT_BUCKETS },
  });
  const rateLimitRemaining = meter.createObservableGauge('shop.rate_limit.remaining', {
    description: 'X-RateLimit-Remaining of the last answer from each API host: requests left this minute.',
    unit: '{request}',
  });
  const inboxEvents = meter.createCounter('shop.inbox.events', {
    description:
      'Inbox events written and run outcomes: added, duplicate, replayed, done, retry, dead, lost.',
    unit: '{event}',
  });
  const inboxDepth = meter.createUpDownCounter('shop.inbox.depth', {
    description: 'Events written (or replayed) and not yet done or dead: sum it over every process.',
    unit: '{event}',
  });
  const deadLetters = meter.createCounter('shop.inbox.dead_letters', {
    description: 'Events moved to the dead letters after their last attempt.',
    unit: '{event}',
  });
  const processing = meter.createHistogram('shop.inbox.processing.duration', {
    description: "Time of each inbox handler run (with the SQL stores, its transaction's), by outcome.",
    unit: 's',
    advice: { explicitBucketBoundaries: WAIT_BUCKETS },
  });
  const oldestPending = meter.createObservableGauge('shop.inbox.oldest_pending.age', {
    description: "Age of each inbox's oldest pending event (waiting for a worker or for its retry).",
    unit: 's',
  });
  const syncRows = meter.createCounter('shop.sync.rows_written', {
    description: 'Rows the sync engine wrote, by shop and phase (backfill, repair, events, webhook).',
    unit: '{row}',
  });
  const syncRepaired = meter.createCounter('shop.sync.rows_repaired', {
    description: 'Rows a repair pass wrote that no event had brought, by shop.',
    unit: '{row}',
  });
  const syncLag = meter.createObservableGauge('shop.sync.lag', {
    description: "Seconds since each shop's feed pass last reached the feed's end.",
    unit: 's',
  });
  const eventLag = meter.createHistogram('shop.sync.event.lag', {
    description: "Seconds from an event's created_at to its rows being written (webhooks, inbox workers).",
    unit: 's',
    advice: { explicitBucketBoundaries: WAIT_BUCKETS },
  });

  // The label sets of the common case, made once per operation (a process calls a few dozen at most).
  const ok = new Map<string, Attributes>();
  const byOperation = new Map<string, Attributes>();
  const okAttributes = (operation: string): Attributes => {
    let attributes = ok.get(operation);
    if (!attributes) {
      attributes = { 'shop.operation': operation, 'shop.outcome': 'ok' };
      ok.set(operation, attributes);
    }
    return attributes;
  };
  const operationAttributes = (operation: string): Attributes => {
    let attributes = byOperation.get(operation);
    if (!attributes) {
      attributes = { 'shop.operation': operation };
      byOperation.set(operation, attributes);
    }
    return attributes;
  };

  const callSpans = new WeakMap<RequestTraceMessage, Span>();
  const attemptSpans = new WeakMap<AttemptTraceMessage, { span: Span; started: number }>();
  /** The error type of a call's last failed attempt: the next attempt's retry reason. */
  const lastFailure = new WeakMap<RequestTraceMessage, string>();
  const remainingByHost = new Map<string, { attributes: Attributes; value: number }>();
  // Held weakly: an inbox the application dropped is not kept alive (nor asked) by the gauge.
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
    for (const [shop, at] of caughtUpAt) result.observe((now - at) / 1000, { 'shop.sync.shop': shop });
  };
  rateLimitRemaining.addCallback(onRateLimit);
  oldestPending.addCallback(onOldest);
  syncLag.addCallback(onLag);

  const listeners: Record<string, Listener> = {
    [`tracing:${REQUEST_CHANNEL}:start`]: (message) => {
      const call = message as RequestTraceMessage;
      callSpans.set(
        call,
        tracer.startSpan(call.operation, { kind: SpanKind.INTERNAL, attributes: baseAttributes(call) }),
      );
    },
    [`tracing:${REQUEST_CHANNEL}:asyncEnd`]: (message) => {
      const call = message as RequestTraceMessage & Failed;
      const span = callSpans.get(call);
      callSpans.delete(call);
      const failed = 'error' in call && call.error !== undefined;
      const errorType = failed ? errorTypeOf(call.error, call.status) : null;
      const remaining = remainingOf(call);
      if (span) {
        if (call.status !== null) span.setAttribute('http.response.status_code', call.status);
        span.setAttribute('shop.attempts', call.attempts);
        if (remaining !== null) span.setAttribute('shop.rate_limit.remaining', remaining);
        if (errorType !== null) {
          span.setAttribute('error.type', errorType);
          span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
        }
        span.end();
      }
      const outcome: Attributes =
        errorType === null
          ? okAttributes(call.operation)
          : { 'shop.operation': call.operation, 'shop.outcome': 'error', 'error.type': errorType };
      calls.add(1, outcome);
      if (call.elapsedMs !== null) callDuration.record(call.elapsedMs / 1000, outcome);
      if (remaining !== null) {
        const { address } = serverOf(call.baseUrl);
        remainingByHost.set(address, { attributes: { 'server.address': address }, value: remaining });
      }
    },
    [`tracing:${ATTEMPT_CHANNEL}:start`]: (message) => {
      const attempt = message as AttemptTraceMessage;
      const call = attempt.call;
      const parent = callSpans.get(call);
      const attributes: Attributes = { ...baseAttributes(call), 'shop.attempt': attempt.attempt };
      if (attempt.attempt > 1) {
        attributes['http.request.resend_count'] = attempt.attempt - 1;
        const reason = lastFailure.get(call) ?? 'unknown';
        attributes['shop.retry.reason'] = reason;
        retries.add(1, { 'shop.operation': call.operation, 'shop.retry.reason': reason });
      }
      // Waits under a millisecond are the throttle's bookkeeping, not a wait for a slot.
      const waitedMs = Math.round(attempt.throttleWaitMs);
      if (waitedMs > 0) attributes['shop.throttle.wait_ms'] = waitedMs;
      // Only clients with a throttle wait at all: without one the figure is always 0 and not recorded.
      if (attempt.throttleWaitMs > 0) {
        throttleWait.record(attempt.throttleWaitMs / 1000, operationAttributes(call.operation));
      }
      const span = tracer.startSpan(
        `${call.method} ${call.path}`,
        { kind: SpanKind.CLIENT, attributes },
        parent ? trace.setSpan(context.active(), parent) : context.active(),
      );
      attemptSpans.set(attempt, { span, started: performance.now() });
    },
    [`tracing:${ATTEMPT_CHANNEL}:asyncEnd`]: (message) => {
      const attempt = message as AttemptTraceMessage & Failed;
      const held = attemptSpans.get(attempt);
      attemptSpans.delete(attempt);
      const failed = 'error' in attempt && attempt.error !== undefined;
      const status =
        attempt.status ?? (failed ? statusOf(attempt.error) : null) ?? (failed ? null : attempt.call.status);
      const errorType = failed ? errorTypeOf(attempt.error, status) : null;
      if (errorType !== null) lastFailure.set(attempt.call, errorType);
      const server = serverOf(attempt.call.baseUrl);
      const attributes: Attributes = {
        'http.request.method': attempt.call.method,
        'server.address': server.address,
        'server.port': server.port,
        'url.template': attempt.call.path,
        ...(status !== null ? { 'http.response.status_code': status } : {}),
        ...(errorType !== null ? { 'error.type': errorType } : {}),
      };
      if (held) {
        if (status !== null) held.span.setAttribute('http.response.status_code', status);
        if (errorType !== null) {
          held.span.setAttribute('error.type', errorType);
          held.span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
        }
        held.span.end();
        attemptDuration.record((performance.now() - held.started) / 1000, attributes);
      }
    },
    [INBOX_CHANNEL]: (message) => {
      const event = message as InboxDiagnosticsMessage;
      if (!seenInboxes.has(event.inbox)) {
        seenInboxes.add(event.inbox);
        inboxes.add(new WeakRef(event.inbox));
      }
      if (event.type === 'settled') {
        inboxEvents.add(1, { 'shop.inbox.outcome': event.outcome });
        processing.record(event.durationMs / 1000, { 'shop.inbox.outcome': event.outcome });
        if (event.outcome === 'done' || event.outcome === 'dead') inboxDepth.add(-1);
        if (event.outcome === 'dead') deadLetters.add(1);
        return;
      }
      inboxEvents.add(1, { 'shop.inbox.outcome': event.type });
      if (event.type !== 'duplicate') inboxDepth.add(1);
    },
    [SYNC_CHANNEL]: (message) => {
      const event = message as SyncDiagnosticsMessage;
      const shop = { 'shop.sync.shop': event.shop };
      if (event.type === 'event') {
        syncRows.add(event.written, { ...shop, 'shop.sync.phase': 'webhook' });
        const created = Date.parse(event.createdAt);
        if (Number.isFinite(created)) eventLag.record(Math.max(0, (Date.now() - created) / 1000), shop);
        return;
      }
      syncRows.add(event.written, { ...shop, 'shop.sync.phase': event.phase });
      if (event.phase === 'repair') syncRepaired.add(event.written, shop);
      if (event.phase === 'events' && event.done) caughtUpAt.set(event.shop, Date.now());
    },
  };

  for (const [name, listener] of Object.entries(listeners)) subscribe(name, listener);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    for (const [name, listener] of Object.entries(listeners)) unsubscribe(name, listener);
    rateLimitRemaining.removeCallback(onRateLimit);
    oldestPending.removeCallback(onOldest);
    syncLag.removeCallback(onLag);
  };
}

const servers = new Map<string, { readonly address: string; readonly port: number }>();

/** `server.address` and `server.port` of a client's `baseUrl` (its host and port only, never a path or user). */
function serverOf(baseUrl: string): { readonly address: string; readonly port: number } {
  let server = servers.get(baseUrl);
  if (!server) {
    try {
      const url = new URL(baseUrl);
      const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
      server = { address: url.hostname.replace(/^\[|\]$/g, ''), port };
    } catch {
      server = { address: 'unknown', port: 443 };
    }
    if (servers.size < 100) servers.set(baseUrl, server);
  }
  return server;
}

/** `X-RateLimit-Remaining` as a number, or null when missing or unreadable. */
function remainingOf(call: RequestTraceMessage): number | null {
  const text = call.rateLimitRemaining;
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** What a call's span and its attempts' spans all carry: never the path with its ids, the key or the query. */
function baseAttributes(call: RequestTraceMessage): Attributes {
  const server = serverOf(call.baseUrl);
  return {
    'http.request.method': call.method,
    'server.address': server.address,
    'server.port': server.port,
    'url.template': call.path,
    'shop.operation': call.operation,
  };
}

function statusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : null;
}

/**
 * `error.type` as OpenTelemetry's HTTP conventions give it: the status code for an error answer, else the
 * error's class name (`TimeoutError`, `ConnectionError`, `ValidationError`...), never its message.
 */
function errorTypeOf(error: unknown, status: number | null): string {
  if (status !== null && status >= 400) return String(status);
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && /^[A-Za-z][\w.]{0,63}$/.test(name) ? name : '_OTHER';
}
