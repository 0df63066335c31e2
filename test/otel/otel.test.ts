// shop-mgmt/otel with the OpenTelemetry SDK's in-memory exporters: calls over a real socket on 127.0.0.1 (a
// retried call, a throttled one, ids and query values that must not show), an inbox storm and a dead letter,
// a sync of a served sandbox, and a scan of every attribute for what must never be recorded.
import {
  AggregationTemporality,
  type DataPoint,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { instrumentShop } from '../../src/otel.js';
import { ShopSync } from '../../src/sync/engine/shop-sync.js';
import { Inbox } from '../../src/sync/inbox/inbox.js';
import { MemoryInboxStore } from '../../src/sync/inbox/memory.js';
import { createWebhookHandler } from '../../src/webhooks/handler.js';
import { verifyWebhook, verifyWebhookSignature } from '../../src/webhooks/verify.js';
import { json, useLoopback } from '../core/loopback.js';
import {
  API_KEY,
  failure,
  listReservations,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
} from '../core/support.js';
import { churn, freshDatabase, servedSandbox } from '../sync/engine/support.js';
import { anyEvent } from '../sync/inbox/events.js';
import { deliveryHeaders, eventBody, unixNow } from '../webhooks/helpers.js';
import { serveWeb } from '../webhooks/server.js';

const loopback = useLoopback();

let spans: InMemorySpanExporter;
let metricsOut: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;
let stop: () => void;

beforeEach(() => {
  spans = new InMemorySpanExporter();
  metricsOut = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  reader = new PeriodicExportingMetricReader({ exporter: metricsOut, exportIntervalMillis: 3_600_000 });
  stop = instrumentShop({
    tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
    meterProvider: new MeterProvider({ readers: [reader] }),
  });
});
afterEach(async () => {
  stop();
  await reader.shutdown();
});

/** Every metric of the latest collection, by name. */
async function collect(): Promise<Map<string, MetricData>> {
  metricsOut.reset();
  await reader.forceFlush();
  const exported = metricsOut.getMetrics();
  const byName = new Map<string, MetricData>();
  for (const scope of exported.at(-1)?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
  }
  return byName;
}

function points(metrics: Map<string, MetricData>, name: string): DataPoint<unknown>[] {
  const metric = metrics.get(name);
  if (!metric) throw new Error(`no metric ${name}; have ${[...metrics.keys()].join(', ')}`);
  return metric.dataPoints as DataPoint<unknown>[];
}

/** The count and sum of the histogram point whose attributes include `match`. */
function histogramOf(metrics: Map<string, MetricData>, name: string, match: Record<string, unknown> = {}) {
  return pointValue(metrics, name, match) as { count: number; sum: number };
}

/** The value of the sum (or gauge) point whose attributes include `match`. */
function pointValue(metrics: Map<string, MetricData>, name: string, match: Record<string, unknown> = {}) {
  const found = points(metrics, name).filter((point) =>
    Object.entries(match).every(([key, value]) => point.attributes[key] === value),
  );
  expect(found, `${name} ${JSON.stringify(match)}`).toHaveLength(1);
  return found[0]!.value;
}

const byName = (name: string) => spans.getFinishedSpans().filter((span) => span.name === name);

describe('spans of a call', () => {
  it('a call retried once is one call span with two attempt spans under it, attributed', async () => {
    loopback.handle((_seen, res, _req, index) =>
      index === 0
        ? json(res, 503, failure('SERVER_ERROR'))
        : json(res, 200, ok(reservation(4242)), { 'x-ratelimit-remaining': '57' }),
    );
    await testClient({ baseUrl: loopback.baseUrl }).request(retrieveReservation, { path: { id: 4242 } });

    const [call] = byName('range.reservations.retrieve');
    const attempts = byName('GET /v1/range/reservations/{id}');
    expect(call).toBeDefined();
    expect(attempts).toHaveLength(2);
    const port = Number(new URL(loopback.baseUrl).port);
    expect(call!.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.template': '/v1/range/reservations/{id}',
      'shop.operation': 'range.reservations.retrieve',
      'http.response.status_code': 200,
      'shop.attempts': 2,
      'shop.rate_limit.remaining': 57,
    });
    for (const attempt of attempts)
      expect(attempt.parentSpanContext?.spanId).toBe(call!.spanContext().spanId);
    const [first, second] = [...attempts].sort(
      (a, b) => Number(a.attributes['shop.attempt']) - Number(b.attributes['shop.attempt']),
    );
    expect(first!.attributes).toMatchObject({
      'shop.attempt': 1,
      'http.response.status_code': 503,
      'error.type': '503',
    });
    expect(first!.attributes['http.request.resend_count']).toBeUndefined();
    expect(second!.attributes).toMatchObject({
      'shop.attempt': 2,
      'http.request.resend_count': 1,
      'shop.retry.reason': '503',
      'http.response.status_code': 200,
    });
    expect(second!.attributes['error.type']).toBeUndefined();

    const metrics = await collect();
    // The call's count and duration, by operation and outcome: one histogram.
    const calls = histogramOf(metrics, 'shop.client.call.duration', {
      'shop.operation': 'range.reservations.retrieve',
      'shop.outcome': 'ok',
    });
    expect(calls.count).toBe(1);
    expect(calls.sum).toBeGreaterThan(0);
    expect(points(metrics, 'shop.client.call.duration')).toHaveLength(1);
    expect(
      pointValue(metrics, 'shop.client.retries', {
        'shop.operation': 'range.reservations.retrieve',
        'shop.retry.reason': '503',
      }),
    ).toBe(1);
    expect(pointValue(metrics, 'shop.rate_limit.remaining', { 'server.address': '127.0.0.1' })).toBe(57);
    const attemptDurations = points(metrics, 'http.client.request.duration');
    expect(attemptDurations.map((point) => point.attributes['http.response.status_code']).sort()).toEqual([
      200, 503,
    ]);
  });

  it('a failed call ends its span with error.type and counts an error outcome', async () => {
    loopback.handle((_seen, res) => json(res, 404, failure('NOT_FOUND')));
    await rejection(
      testClient({ baseUrl: loopback.baseUrl, maxRetries: 0 }).request(retrieveReservation, {
        path: { id: 5 },
      }),
    );
    const [call] = byName('range.reservations.retrieve');
    expect(call!.attributes).toMatchObject({ 'error.type': '404', 'http.response.status_code': 404 });
    expect(call!.status.code).toBe(2);
    const metrics = await collect();
    expect(
      histogramOf(metrics, 'shop.client.call.duration', { 'shop.outcome': 'error', 'error.type': '404' })
        .count,
    ).toBe(1);
    expect(
      histogramOf(metrics, 'http.client.request.duration', {
        'http.response.status_code': 404,
        'error.type': '404',
      }).count,
    ).toBe(1);
  });

  it("a throttled call records the throttle's wait on its attempt and in the wait histogram", async () => {
    loopback.handle((_seen, res) => json(res, 200, ok(reservation(1))));
    // 600 a minute: one request every 100 ms, so the second call waits for its slot.
    const shop = testClient({ baseUrl: loopback.baseUrl, throttle: { requestsPerMinute: 600 } });
    // Sent together: the first takes the free slot, the second is given the next one, 100 ms on.
    await Promise.all([
      shop.request(retrieveReservation, { path: { id: 1 } }),
      shop.request(retrieveReservation, { path: { id: 1 } }),
    ]);
    const recorded = byName('GET /v1/range/reservations/{id}').map((span) =>
      Number(span.attributes['shop.throttle.wait_ms'] ?? 0),
    );
    expect(recorded).toHaveLength(2);
    // The sleep before a slot never ends early: at least the 100 ms gap less the throttle's 20 ms lead.
    expect(Math.max(...recorded)).toBeGreaterThanOrEqual(80);
    const metrics = await collect();
    const [histogram] = points(metrics, 'shop.client.throttle.wait');
    expect((histogram!.value as { count: number; sum: number }).count).toBe(2);
    expect((histogram!.value as { count: number; sum: number }).sum).toBeGreaterThanOrEqual(0.08);
  });

  it('records nothing once removed', async () => {
    stop();
    loopback.handle((_seen, res) => json(res, 200, ok(reservation(1))));
    await testClient({ baseUrl: loopback.baseUrl }).request(retrieveReservation, { path: { id: 1 } });
    expect(spans.getFinishedSpans()).toHaveLength(0);
  });
});

describe('inbox metrics', () => {
  it('an inbox storm moves depth up and back to 0, and the processing time is recorded', async () => {
    const started = Date.now();
    // The inbox's clock runs 30 s behind the gauge's: the events it writes are 30 s old when collected.
    const inbox = new Inbox(new MemoryInboxStore(), { now: () => Date.now() - 30_000 });
    for (let i = 0; i < 60; i++) await inbox.add(anyEvent());
    await inbox.add(anyEvent()).then(() => undefined);
    let metrics = await collect();
    expect(pointValue(metrics, 'shop.inbox.depth')).toBe(61);
    expect(pointValue(metrics, 'shop.inbox.events', { 'shop.inbox.outcome': 'added' })).toBe(61);
    const age = pointValue(metrics, 'shop.inbox.oldest_pending.age') as number;
    expect(age).toBeGreaterThanOrEqual(30);
    expect(age).toBeLessThanOrEqual(30 + (Date.now() - started) / 1000);

    const worker = inbox.work(async () => {}, { concurrency: 8, pollMs: 5 });
    await worker.idle();
    await worker.stop();
    metrics = await collect();
    expect(pointValue(metrics, 'shop.inbox.depth')).toBe(0);
    expect(pointValue(metrics, 'shop.inbox.events', { 'shop.inbox.outcome': 'done' })).toBe(61);
    const [processing] = points(metrics, 'shop.inbox.processing.duration');
    expect((processing!.value as { count: number }).count).toBe(61);
    expect(pointValue(metrics, 'shop.inbox.oldest_pending.age')).toBe(0);
  });

  it('counts a dead letter, and a duplicate leaves the depth alone', async () => {
    const inbox = new Inbox(new MemoryInboxStore(), { maxAttempts: 1 });
    const event = anyEvent();
    await inbox.add(event);
    await inbox.add(event);
    await inbox.runOnce(
      () => {
        throw new Error('refused');
      },
      { onError: () => {} },
    );
    const metrics = await collect();
    expect(pointValue(metrics, 'shop.inbox.dead_letters')).toBe(1);
    expect(pointValue(metrics, 'shop.inbox.events', { 'shop.inbox.outcome': 'dead' })).toBe(1);
    expect(pointValue(metrics, 'shop.inbox.events', { 'shop.inbox.outcome': 'duplicate' })).toBe(1);
    expect(pointValue(metrics, 'shop.inbox.depth')).toBe(0);
  });
});

describe('sync metrics', () => {
  it('reports rows written and the lag per shop after a sync of a served sandbox', async () => {
    const shop = await servedSandbox({ records: { reservations: 30 }, now: '2026-10-01T12:00:00Z' });
    const { db, cleanup } = await freshDatabase('sqlite');
    try {
      const sync = new ShopSync({ client: shop.client, db, shop: 'north' });
      const result = await sync.runOnce();
      const caughtUp = Date.now();
      // Collected 45 s after the pass reached the feed's end, by the clock the gauge reads.
      const later = vi.spyOn(Date, 'now').mockReturnValue(caughtUp + 45_000);
      let metrics: Map<string, MetricData>;
      try {
        metrics = await collect();
      } finally {
        later.mockRestore();
      }
      const written = points(metrics, 'shop.sync.rows_written')
        .filter((point) => point.attributes['shop.sync.shop'] === 'north')
        .reduce((sum, point) => sum + (point.value as number), 0);
      expect(result.written).toBeGreaterThan(0);
      expect(written).toBe(result.written);
      const lag = pointValue(metrics, 'shop.sync.lag', { 'shop.sync.shop': 'north' }) as number;
      expect(lag).toBeGreaterThanOrEqual(45);
      expect(lag).toBeLessThanOrEqual(45 + (Date.now() - caughtUp) / 1000);
    } finally {
      await cleanup();
      await shop.close();
    }
  });

  it('counts the rows a repair pass wrote per shop, apart from the rows of other phases', async () => {
    const shop = await servedSandbox({ records: { reservations: 5 } });
    const { db, cleanup } = await freshDatabase('sqlite');
    try {
      const sync = new ShopSync({ client: shop.client, db, shop: 'south' });
      await sync.backfill();
      // Bookings, check-ins and cancellations the database hears of from no event: the repair finds them.
      await churn(shop.client, 6, 0);
      const repair = await sync.repair();
      expect(repair.repaired).toBeGreaterThan(0);
      const metrics = await collect();
      expect(pointValue(metrics, 'shop.sync.rows_repaired', { 'shop.sync.shop': 'south' })).toBe(
        repair.repaired,
      );
      expect(
        pointValue(metrics, 'shop.sync.rows_written', {
          'shop.sync.shop': 'south',
          'shop.sync.phase': 'repair',
        }),
      ).toBe(repair.written);
    } finally {
      await cleanup();
      await shop.close();
    }
  });
});

describe('webhook metrics', () => {
  const SECRET = 'whsec_otel_test_secret';

  it('counts verifications by outcome: verifyWebhook, verifyWebhookSignature and a handler', async () => {
    const body = eventBody();
    const headers = deliveryHeaders(body, SECRET, unixNow());
    await verifyWebhook({ body, headers, secret: SECRET });
    await verifyWebhookSignature({ body, headers, secret: SECRET });
    await expect(verifyWebhook({ body, headers, secret: 'whsec_another' })).rejects.toThrow();
    await expect(verifyWebhookSignature({ body, headers: {}, secret: SECRET })).rejects.toThrow();
    const stale = deliveryHeaders(body, SECRET, unixNow() - 3_600);
    await expect(verifyWebhook({ body, headers: stale, secret: SECRET })).rejects.toThrow();

    // A handler over HTTP: one delivery refused, one taken.
    const server = await serveWeb(createWebhookHandler({ secret: SECRET, onEvent: () => {} }));
    try {
      const refused = await fetch(server.url, {
        method: 'POST',
        body,
        headers: { ...headers, 'service-signature': `t=${unixNow()},v1=${'0'.repeat(64)}` },
      });
      expect(refused.status).toBe(400);
      const taken = await fetch(server.url, { method: 'POST', body, headers });
      expect(taken.status).toBe(200);
    } finally {
      await server.close();
    }

    const metrics = await collect();
    const count = (outcome: string) =>
      pointValue(metrics, 'shop.webhooks.verifications', { 'shop.webhooks.outcome': outcome });
    expect(count('ok')).toBe(3);
    expect(count('signature_mismatch')).toBe(2);
    expect(count('missing_header')).toBe(1);
    expect(count('timestamp_out_of_tolerance')).toBe(1);
    expect(points(metrics, 'shop.webhooks.verifications')).toHaveLength(4);
  });

  it('publishes nothing once removed', async () => {
    stop();
    const body = eventBody();
    await verifyWebhook({ body, headers: deliveryHeaders(body, SECRET, unixNow()), secret: SECRET });
    const metrics = await collect();
    expect(metrics.has('shop.webhooks.verifications')).toBe(false);
  });
});

describe('what is never recorded', () => {
  it('no span attribute or metric label holds the key, an id-bearing path or a query value', async () => {
    loopback.handle((seen, res, _req, index) => {
      if (seen.url.includes('/reservations/'))
        return json(res, index === 0 ? 500 : 200, ok(reservation(987654)));
      return json(res, 200, ok([reservation(987654)], { has_more: false, next_cursor: null }));
    });
    const client = testClient({ baseUrl: loopback.baseUrl });
    await client.request(retrieveReservation, { path: { id: 987654 } });
    await client.list(listReservations, { query: { status: 'zz-query-value-zz', cursor: 'cur_secret' } });
    const inbox = new Inbox(new MemoryInboxStore(), { maxAttempts: 1 });
    const event = anyEvent(555_444);
    await inbox.add(event);
    await inbox.runOnce(
      () => {
        throw new Error(`failed on ${API_KEY}`);
      },
      { onError: () => {} },
    );

    const webhookSecret = 'whsec_scan_secret_value';
    const body = eventBody({ id: 'evt_scan_id_31337' });
    const signed = deliveryHeaders(body, webhookSecret, unixNow());
    await verifyWebhook({ body, headers: signed, secret: webhookSecret });
    const forged = deliveryHeaders(body, 'whsec_wrong', unixNow());
    await expect(verifyWebhook({ body, headers: forged, secret: webhookSecret })).rejects.toThrow();

    const values: string[] = [];
    const finished: ReadableSpan[] = spans.getFinishedSpans();
    expect(finished.length).toBeGreaterThanOrEqual(5);
    for (const span of finished) {
      values.push(span.name, span.status.message ?? '');
      for (const [key, value] of Object.entries(span.attributes)) values.push(key, String(value));
      for (const event of span.events) values.push(event.name, JSON.stringify(event.attributes ?? {}));
    }
    const metrics = await collect();
    expect(metrics.size).toBeGreaterThanOrEqual(8);
    // The scan covers the webhook verifications' labels too.
    expect(points(metrics, 'shop.webhooks.verifications')).toHaveLength(2);
    for (const metric of metrics.values()) {
      for (const point of metric.dataPoints) {
        for (const [key, value] of Object.entries(point.attributes)) values.push(key, String(value));
      }
    }
    const text = values.join('\n');
    for (const secret of [
      API_KEY,
      '987654',
      'zz-query-value-zz',
      'cur_secret',
      '555444',
      event.id,
      'Bearer',
      webhookSecret,
      'whsec_',
      'evt_scan_id_31337',
      '31337',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    // The route template is there, so the scan looked at the calls' spans.
    expect(text).toContain('/v1/range/reservations/{id}');
  });
});
