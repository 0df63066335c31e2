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
 *
 * Then the steadier figure, CPU time per call in short alternating blocks (BENCH_BLOCKS, default 200, of 50
 * calls, the sides in turn), for the in-process call: without; with no-op subscribers on the four tracing
 * channels (what Node's TracingChannel and the transport's messages cost, before any OpenTelemetry work); with
 * `instrumentShop()`; the OpenTelemetry calls the entry makes for a 1-item call (two spans, the child under the
 * parent, their attributes, and the two histogram records) made by hand around each uninstrumented call (the
 * SDK's cost in place); and the SDK's floor: those calls alone in a tight loop, no call around them.
 * The 10th percentile of the blocks is the least-disturbed figure; the medians are given beside it.
 * BENCH_BLOCKS_ONLY=1 runs only these blocks.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { context, SpanKind, trace } from '@opentelemetry/api';
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
const BLOCKS = Math.max(20, Number(process.env.BENCH_BLOCKS ?? 200));
const BLOCK = 50;
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
// BENCH_BLOCKS_ONLY=1 runs only the blocks below.
for (const [name, run, per] of process.env.BENCH_BLOCKS_ONLY === '1'
  ? []
  : ([
      ['1-item call over loopback', calls, CALLS],
      ['1-item call, in-process fetch', inProcessCalls, CALLS],
      ['inbox delivery (memory store)', deliveries, DELIVERIES],
    ] as const)) {
  const { without, withOtel, ratio, cpuRatio } = await sideBySide(run, per);
  console.log(
    `  ${name.padEnd(34)}${show(spread(without), 1).padEnd(24)}${show(spread(withOtel), 1).padEnd(24)}` +
      `${show(ratio, 3).padEnd(24)}${show(cpuRatio, 3)}`,
  );
}

// CPU per call in alternating blocks: the in-process call without, with no-op channel subscribers, with the
// entry; and the SDK floor alone.
const CHANNELS = [
  'tracing:shop-mgmt:request:start',
  'tracing:shop-mgmt:request:asyncEnd',
  'tracing:shop-mgmt:request:attempt:start',
  'tracing:shop-mgmt:request:attempt:asyncEnd',
];
const noop = () => {};
const tracer = tracerProvider.getTracer('bench-floor');
const meter = meterProvider.getMeter('bench-floor');
const floorHistogram = meter.createHistogram('floor.call.duration', { unit: 's' });
const floorAttemptHistogram = meter.createHistogram('floor.attempt.duration', { unit: 's' });
const base = {
  'http.request.method': 'GET',
  'server.address': '127.0.0.1',
  'server.port': 80,
  'url.template': '/v1/range/reservations/{id}',
  'shop.operation': 'range.reservations.retrieve',
};
const callOptions = { kind: SpanKind.INTERNAL, attributes: base };
const attemptOptions = { kind: SpanKind.CLIENT, attributes: { ...base, 'shop.attempt': 1 } };
const outcome = { 'shop.operation': 'range.reservations.retrieve', 'shop.outcome': 'ok' };
const attemptLabels = {
  'http.request.method': 'GET',
  'server.address': '127.0.0.1',
  'server.port': 80,
  'url.template': '/v1/range/reservations/{id}',
  'http.response.status_code': 200,
};
type Pair = readonly [ReturnType<typeof tracer.startSpan>, ReturnType<typeof tracer.startSpan>];
/** The OpenTelemetry SDK calls the entry makes as a 1-item call starts: the call span, its attempt's under it. */
function sdkStart(): Pair {
  const call = tracer.startSpan('range.reservations.retrieve', callOptions);
  return [
    call,
    tracer.startSpan(
      'GET /v1/range/reservations/{id}',
      attemptOptions,
      trace.setSpan(context.active(), call),
    ),
  ];
}
/** ...and as it ends: the attributes known then, both ends, the two histogram records. */
function sdkEnd([call, attempt]: Pair): void {
  attempt.setAttribute('http.response.status_code', 200);
  attempt.end();
  floorAttemptHistogram.record(0.0004, attemptLabels);
  call.setAttribute('shop.attempts', 1);
  call.setAttribute('shop.rate_limit.remaining', 57);
  call.setAttribute('http.response.status_code', 200);
  call.end();
  floorHistogram.record(0.0005, outcome);
}
/** The SDK's floor: those calls alone, in a tight loop. */
async function floor(): Promise<void> {
  for (let i = 0; i < BLOCK; i++) sdkEnd(sdkStart());
}
/** The same SDK calls around each uninstrumented call: the SDK's cost in place, without the entry. */
async function sdkBeside(): Promise<void> {
  for (let i = 0; i < BLOCK; i++) {
    const spans = sdkStart();
    await inProcess.request(retrieve, { path: { id: 1 } });
    sdkEnd(spans);
  }
}
async function block(): Promise<void> {
  for (let i = 0; i < BLOCK; i++) await inProcess.request(retrieve, { path: { id: 1 } });
}
const sides = {
  without: { cpu: [] as number[], setup: () => noop },
  'no-op channel subscribers': {
    cpu: [] as number[],
    setup: () => {
      for (const name of CHANNELS) subscribe(name, noop);
      return () => {
        for (const name of CHANNELS) unsubscribe(name, noop);
      };
    },
  },
  'instrumentShop()': { cpu: [] as number[], setup: () => instrumentShop({ tracerProvider, meterProvider }) },
  'SDK calls beside each call': { cpu: [] as number[], setup: () => noop, run: sdkBeside },
  'SDK floor loop (no call)': { cpu: [] as number[], setup: () => noop, run: floor },
} as Record<string, { cpu: number[]; setup: () => () => void; run?: () => Promise<void> }>;
for (const side of Object.values(sides)) {
  const stop = side.setup();
  await (side.run ?? block)();
  stop();
}
console.log(
  `\nCPU us a call, ${BLOCKS} blocks of ${BLOCK} a side in turn, in-process call; ${await loadLine()}`,
);
const entries = Object.entries(sides);
for (let b = 0; b < BLOCKS; b++) {
  for (const [, side] of b % 2 ? [...entries].reverse() : entries) {
    const stop = side.setup();
    const started = process.cpuUsage();
    await (side.run ?? block)();
    const used = process.cpuUsage(started);
    stop();
    side.cpu.push((used.user + used.system) / BLOCK);
  }
}
const p10 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 10)]!;
const baseline = sides.without!.cpu;
console.log(`  ${'side'.padEnd(30)}${'p10'.padEnd(10)}${'median'.padEnd(10)}p10 - without`);
for (const [name, side] of entries) {
  const extra = name === 'without' || side.run === floor ? '' : (p10(side.cpu) - p10(baseline)).toFixed(1);
  console.log(
    `  ${name.padEnd(30)}${p10(side.cpu).toFixed(1).padEnd(10)}${spread(side.cpu).median.toFixed(1).padEnd(10)}${extra}`,
  );
}

console.log(`\n${await loadLine()} at the end`);
server.stop();
await tracerProvider.shutdown();
await meterProvider.shutdown();
