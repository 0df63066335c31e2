/**
 * What `shop-mgmt/otel` costs: a 1-item call over loopback (the server in a child process, transport-server.ts),
 * the same call answered by an in-process fetch (no socket: the SDK's own cost, where the instrumentation's
 * share is largest), and an inbox delivery (add + one worker run on the memory store), each without and with
 * `instrumentShop()`,
 * side by side in one run: `npm run build`, then `npx tsx bench/otel.ts` (`npm run bench:otel`).
 *
 * "with" records into the OpenTelemetry SDK as an application would set it up: a BasicTracerProvider with a
 * BatchSpanProcessor and a MeterProvider with a periodic reader, both exporting into exporters that drop
 * what they get (the export itself is the partner's choice and cost). Each round runs both sides, the order
 * swapping every round, instrumenting before "with" and removing it after; the ratio is taken within each
 * round and printed as median (min-max) over the rounds (BENCH_ROUNDS, default 15), for wall time and for
 * the client process's CPU time (user + system; the server runs in its own process).
 */
import type { ExportResult } from '@opentelemetry/core';
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { importBuilt, loadLine, show, spread, startServer } from './support.js';

type Sdk = typeof import('../src/index.js');
type Otel = typeof import('../src/otel.js');
type InboxEntry = typeof import('../src/sync/inbox/index.js');
const { ShopClient, operations } = await importBuilt<Sdk>();
const { instrumentShop } = await importBuilt<Otel>('shop-mgmt/otel');
const { Inbox, MemoryInboxStore } = await importBuilt<InboxEntry>('shop-mgmt/inbox');

const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 15));
const CALLS = 300;
const DELIVERIES = 300;

const dropSpans: SpanExporter = {
  export: (_spans, done: (result: ExportResult) => void) => done({ code: 0 }),
  shutdown: async () => {},
};
const dropMetrics: PushMetricExporter = {
  export: (_metrics, done: (result: ExportResult) => void) => done({ code: 0 }),
  forceFlush: async () => {},
  shutdown: async () => {},
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] });
const meterProvider = new MeterProvider({
  readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 10_000 })],
});

const server = await startServer();
const shop = new ShopClient({ apiKey: 'sk_test_bench', baseUrl: server.baseUrl, logLevel: 'off' });
const retrieve = operations['range.reservations.retrieve'];
// The same call with no socket: a fetch answering in process, so the figure is the SDK's own CPU and the
// instrumentation's share of it shows undiluted by the exchange.
const answer = JSON.stringify({
  status: 'ok',
  data: { object: 'range_reservation', id: 1, status: 'booked', party_size: 2 },
});
const inProcess = new ShopClient({
  apiKey: 'sk_test_bench',
  baseUrl: server.baseUrl,
  logLevel: 'off',
  responseValidation: 'off',
  fetch: async () => new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } }),
});
const inbox = new Inbox(new MemoryInboxStore());
let n = 0;

async function calls(): Promise<void> {
  for (let i = 0; i < CALLS; i++) await shop.request(retrieve, { path: { id: 1 } });
}

async function inProcessCalls(): Promise<void> {
  for (let i = 0; i < CALLS; i++) await inProcess.request(retrieve, { path: { id: 1 } });
}

async function deliveries(): Promise<void> {
  for (let i = 0; i < DELIVERIES; i++) {
    n++;
    await inbox.add({
      id: `evt_${n}`,
      object: 'event',
      api_version: '2026-09-24',
      created_at: '2026-10-01T12:00:00.000Z',
      livemode: false,
      type: 'customer.deleted',
      data: { object: { object: 'customer', id: n, deleted: true } },
    } as never);
    await inbox.runOnce(() => {}, { limit: 1 });
  }
}

/** Per-item microseconds of `run` without and with the instrumentation, `ROUNDS` times, order swapping. */
async function sideBySide(run: () => Promise<void>, per: number) {
  const without: number[] = [];
  const withOtel: number[] = [];
  const cpuWithout: number[] = [];
  const cpuWith: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const instrumented of round % 2 ? [true, false] : [false, true]) {
      const stop = instrumented ? instrumentShop({ tracerProvider, meterProvider }) : () => {};
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await run();
      const used = process.cpuUsage(cpuStarted);
      const micros = ((performance.now() - started) / per) * 1000;
      stop();
      (instrumented ? withOtel : without).push(micros);
      (instrumented ? cpuWith : cpuWithout).push((used.user + used.system) / per);
    }
  }
  return {
    without,
    withOtel,
    ratio: spread(withOtel.map((value, round) => value / without[round]!)),
    cpuRatio: spread(cpuWith.map((value, round) => value / cpuWithout[round]!)),
  };
}

// Warm-up: ky, the validators and the SDK's OpenTelemetry paths loaded and compiled on both sides.
const warm = instrumentShop({ tracerProvider, meterProvider });
await calls();
await inProcessCalls();
await deliveries();
warm();
await calls();
await inProcessCalls();
await deliveries();

console.log(
  `bench/otel: node ${process.version}, shop-mgmt as installed (dist/node/), ${ROUNDS} rounds, order swapping; ` +
    `${await loadLine()} at the start`,
);
console.log('figures: median (min-max) over the rounds; the ratio taken within each round\n');
console.log(
  `  ${'case'.padEnd(34)}${'without us'.padEnd(24)}${'with otel us'.padEnd(24)}${'wall with / without'.padEnd(24)}cpu with / without`,
);
for (const [name, run, per] of [
  ['1-item call over loopback', calls, CALLS],
  ['1-item call, in-process fetch', inProcessCalls, CALLS],
  ['inbox delivery (memory store)', deliveries, DELIVERIES],
] as const) {
  const { without, withOtel, ratio, cpuRatio } = await sideBySide(run, per);
  console.log(
    `  ${name.padEnd(34)}${show(spread(without), 1).padEnd(24)}${show(spread(withOtel), 1).padEnd(24)}` +
      `${show(ratio, 3).padEnd(24)}${show(cpuRatio, 3)}`,
  );
}
console.log(`\n${await loadLine()} at the end`);
server.stop();
await tracerProvider.shutdown();
await meterProvider.shutdown();
