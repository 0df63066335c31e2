// OpenTelemetry spans from shop-mgmt's diagnostics channels: no SDK plugin and no dependency of the SDK.
// Every call becomes a CLIENT span named after its operation (`range.reservations.create`), and each of its
// attempts a child span, so a retried call shows as one parent with its attempts under it.
//
//   import { trace } from '@opentelemetry/api';
//   const stop = traceShopMgmt(trace.getTracer('my-app'));
//
// It imports the SDK from source so it runs without a build; in your app the import is 'shop-mgmt'.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { context, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import {
  ATTEMPT_CHANNEL,
  type AttemptTraceMessage,
  REQUEST_CHANNEL,
  type RequestTraceMessage,
} from '../src/index.js';

type Listener = (message: unknown, name: string | symbol) => void;

/** Subscribes `tracer` to shop-mgmt's calls and attempts; returns the function that unsubscribes it. */
export function traceShopMgmt(tracer: Tracer): () => void {
  const calls = new WeakMap<RequestTraceMessage, Span>();
  const attempts = new WeakMap<AttemptTraceMessage, Span>();

  const listeners: Record<string, Listener> = {
    [`tracing:${REQUEST_CHANNEL}:start`]: (message) => {
      const call = message as RequestTraceMessage;
      calls.set(
        call,
        tracer.startSpan(call.operation, {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': call.method,
            'url.template': call.path,
            ...(call.idempotencyKey ? { 'shop.idempotency_key': call.idempotencyKey } : {}),
          },
        }),
      );
    },
    [`tracing:${REQUEST_CHANNEL}:asyncEnd`]: (message) => endCall(message as RequestTraceMessage),
    [`tracing:${REQUEST_CHANNEL}:error`]: (message) => {
      const { error } = message as { error: Error };
      calls.get(message as RequestTraceMessage)?.recordException(error);
    },
    [`tracing:${ATTEMPT_CHANNEL}:start`]: (message) => {
      const attempt = message as AttemptTraceMessage;
      const parent = calls.get(attempt.call);
      const parentContext = parent ? trace.setSpan(context.active(), parent) : context.active();
      attempts.set(
        attempt,
        tracer.startSpan(
          `${attempt.call.operation} attempt ${attempt.attempt}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'http.request.method': attempt.call.method,
              'url.template': attempt.call.path,
              // OpenTelemetry's name for "this is retry number n" (absent on the first attempt).
              ...(attempt.attempt > 1 ? { 'http.request.resend_count': attempt.attempt - 1 } : {}),
            },
          },
          parentContext,
        ),
      );
    },
    [`tracing:${ATTEMPT_CHANNEL}:asyncEnd`]: (message) => endAttempt(message as AttemptTraceMessage),
    [`tracing:${ATTEMPT_CHANNEL}:error`]: (message) => {
      const { error } = message as { error: Error };
      attempts.get(message as AttemptTraceMessage)?.recordException(error);
    },
  };

  function endCall(call: RequestTraceMessage & { error?: Error }): void {
    const span = calls.get(call);
    if (!span) return;
    if (call.status !== null) span.setAttribute('http.response.status_code', call.status);
    span.setAttribute('shop.retry_count', Math.max(call.attempts - 1, 0));
    if (call.error) span.setStatus({ code: SpanStatusCode.ERROR, message: call.error.name });
    span.end();
  }

  function endAttempt(attempt: AttemptTraceMessage & { error?: Error }): void {
    const span = attempts.get(attempt);
    if (!span) return;
    const status = attempt.status ?? (attempt.error as { status?: number } | undefined)?.status;
    if (typeof status === 'number') span.setAttribute('http.response.status_code', status);
    if (attempt.error) span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.error.name });
    span.end();
  }

  for (const [name, listener] of Object.entries(listeners)) subscribe(name, listener);
  return () => {
    for (const [name, listener] of Object.entries(listeners)) unsubscribe(name, listener);
  };
}
