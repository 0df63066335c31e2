// The diagnostics channels over a real socket, raw and through the OpenTelemetry example (examples/).
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { traceShopMgmt } from '../../examples/otel-tracing.js';
import { InternalServerError } from '../../src/core/errors/index.js';
import { ATTEMPT_CHANNEL, REQUEST_CHANNEL } from '../../src/core/observe/tracing.js';
import { json, useLoopback } from './loopback.js';
import {
  createReservation,
  failure,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
} from './support.js';

const loopback = useLoopback();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Records every event of a tracing channel as `[event, snapshot of the message]`. */
function record(channel: string): [string, Record<string, unknown>][] {
  const events: [string, Record<string, unknown>][] = [];
  for (const event of ['start', 'end', 'asyncStart', 'asyncEnd', 'error']) {
    const name = `tracing:${channel}:${event}`;
    const listener = (message: unknown) => events.push([event, { ...(message as Record<string, unknown>) }]);
    subscribe(name, listener);
    cleanups.push(() => unsubscribe(name, listener));
  }
  return events;
}

describe('the shop-mgmt:request tracing channel', () => {
  it('publishes start, end, asyncStart and asyncEnd of a call with its context and result figures', async () => {
    loopback.handle((_seen, res, _req, index) =>
      index === 0 ? json(res, 503, failure('SERVER_ERROR')) : json(res, 201, ok(reservation(3))),
    );
    const events = record(REQUEST_CHANNEL);
    const attempts = record(ATTEMPT_CHANNEL);
    await testClient({ baseUrl: loopback.baseUrl }).request(
      createReservation,
      { body: { party_size: 2 } },
      { idempotencyKey: 'k-1' },
    );
    expect(events.map(([event]) => event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(events[0]?.[1]).toMatchObject({
      operation: 'range.reservations.create',
      method: 'POST',
      path: '/v1/range/reservations',
      idempotencyKey: 'k-1',
    });
    expect(events[3]?.[1]).toMatchObject({ status: 201, attempts: 2, elapsedMs: expect.any(Number) });
    expect(attempts.filter(([event]) => event === 'start').map(([, message]) => message.attempt)).toEqual([
      1, 2,
    ]);
    expect(attempts.filter(([event]) => event === 'error')).toHaveLength(1);
  });

  it('publishes error with the error the call rejects with', async () => {
    loopback.handle((_seen, res) => json(res, 500, failure('SERVER_ERROR')));
    const events = record(REQUEST_CHANNEL);
    const error = await rejection(
      testClient({ baseUrl: loopback.baseUrl, maxRetries: 0 }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(events.map(([event]) => event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(events[2]?.[1].error).toBe(error);
    expect(events[2]?.[1]).toMatchObject({ status: 500, attempts: 1 });
  });

  it('publishes nothing, and builds no message, when nobody listens', async () => {
    loopback.handle((_seen, res) => json(res, 200, ok(reservation(1))));
    expect(tracingChannel(REQUEST_CHANNEL).hasSubscribers).toBe(false);
    const result = await testClient({ baseUrl: loopback.baseUrl }).request(retrieveReservation, {
      path: { id: 1 },
    });
    expect(result.id).toBe(1);
  });
});

describe('the OpenTelemetry example (examples/otel-tracing.ts)', () => {
  function tracer(): { exporter: InMemorySpanExporter } {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    cleanups.push(traceShopMgmt(provider.getTracer('test')));
    return { exporter };
  }

  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('makes one span per call and one child per attempt across retries, with the HTTP attributes', async () => {
    loopback.handle((_seen, res, req, index) => {
      if (index === 0) return req.socket.resetAndDestroy();
      if (index === 1) return json(res, 503, failure('SERVER_ERROR'));
      json(res, 201, ok(reservation(8)));
    });
    const { exporter } = tracer();
    await testClient({ baseUrl: loopback.baseUrl }).request(createReservation, { body: { party_size: 2 } });
    const spans = exporter.getFinishedSpans();
    const call = spans.find((span) => span.name === 'range.reservations.create');
    const children = spans.filter((span) => span.name.startsWith('range.reservations.create attempt'));
    expect(call).toBeDefined();
    expect(call?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.template': '/v1/range/reservations',
      'http.response.status_code': 201,
      'shop.retry_count': 2,
    });
    expect(children.map((span) => span.name)).toEqual([
      'range.reservations.create attempt 1',
      'range.reservations.create attempt 2',
      'range.reservations.create attempt 3',
    ]);
    for (const child of children) {
      expect(parentOf(child)).toBe(call?.spanContext().spanId);
      expect(child.spanContext().traceId).toBe(call?.spanContext().traceId);
    }
    expect(children.map((span) => span.attributes['http.request.resend_count'])).toEqual([undefined, 1, 2]);
    expect(children.map((span) => span.attributes['http.response.status_code'])).toEqual([
      undefined,
      503,
      201,
    ]);
    // Attempts in order, each within the call.
    const time = (span: ReadableSpan) => span.startTime[0] * 1e9 + span.startTime[1];
    const starts = children.map(time);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(time(call as ReadableSpan)).toBeLessThanOrEqual(starts[0] ?? 0);
  });

  it('marks a failed call as an error, with the status it ended on', async () => {
    loopback.handle((_seen, res) => json(res, 500, failure('SERVER_ERROR')));
    const { exporter } = tracer();
    const error = await rejection(
      testClient({ baseUrl: loopback.baseUrl, maxRetries: 0 }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    const call = exporter.getFinishedSpans().find((span) => span.name === 'range.reservations.retrieve');
    expect(call?.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(call?.attributes['http.response.status_code']).toBe(500);
    expect(call?.attributes['url.template']).toBe('/v1/range/reservations/{id}');
  });
});
