// shop-mgmt/otel as a project that installed the tarball sees it, with @opentelemetry/api and the SDK beside
// it: one call to a loopback server gives one call span with its attempt span under it, and the call metric.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import {
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ShopClient } from 'shop-mgmt';
import { instrumentShop } from 'shop-mgmt/otel';

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '59' });
  res.end(JSON.stringify({ status: 'ok', data: { object: 'range_reservation', id: 7 } }));
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const spans = new InMemorySpanExporter();
const exporter = new InMemoryMetricExporter(0);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const stop = instrumentShop({
  tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
  meterProvider: new MeterProvider({ readers: [reader] }),
});
const shop = new ShopClient({
  apiKey: 'sk_test_pkg',
  baseUrl: `http://127.0.0.1:${server.address().port}`,
  responseValidation: 'off',
});
await shop.range.reservations.retrieve(7);
stop();
const finished = spans.getFinishedSpans();
assert.deepEqual(finished.map((span) => span.name).sort(), [
  'GET /v1/range/reservations/{id}',
  'range.reservations.retrieve',
]);
const call = finished.find((span) => span.name === 'range.reservations.retrieve');
const attempt = finished.find((span) => span.name !== 'range.reservations.retrieve');
assert.equal(attempt.parentSpanContext?.spanId, call.spanContext().spanId);
assert.equal(call.attributes['shop.rate_limit.remaining'], 59);
await reader.forceFlush();
const names = exporter
  .getMetrics()
  .flatMap((resource) =>
    resource.scopeMetrics.flatMap((scope) => scope.metrics.map((m) => m.descriptor.name)),
  );
assert.ok(names.includes('shop.client.call.duration'), names.join(', '));
await reader.shutdown();
server.close();
console.log('otel entry: ok');
