// The server side of bench/sandbox-list.ts, in a child process of its own: the sandbox seeded with
// `--records reservations=N` served on loopback, or (mode `bare`) a bare node:http server answering each of
// the bench's paths with the JSON the sandbox answered it with, computed once at start. Prints the port, then
// answers `memory` messages with this process's heap and RSS. Plain JavaScript on the built package
// (`shop-mgmt/testing`, dist/), run by node alone: what `npx shop-mgmt sandbox` runs, without a TypeScript
// loader's own memory in the figures (bench/sandbox-list.ts checks dist/ is fresh first).
import { createServer } from 'node:http';
import { createSandbox } from 'shop-mgmt/testing';

const mode = process.argv[2] === 'bare' ? 'bare' : 'sandbox';
const records = Number(process.argv[3] ?? 50_000);
const paths = JSON.parse(process.argv[4] ?? '[]');

const sandbox = createSandbox({
  records: { reservations: records },
  rateLimits: { perMinute: 1_000_000_000, perDay: null },
  now: '2026-06-01T12:00:00Z',
});
const key = sandbox.createKey();
const send = (message) => process.send?.(message);

if (mode === 'sandbox') {
  const served = await sandbox.listen();
  send({ port: Number(new URL(served.url).port), key });
} else {
  // The same bytes the sandbox answers, fetched once; from then on only node:http runs per request.
  const bodies = new Map();
  for (const path of paths) {
    const response = await sandbox.handle(
      new Request(`https://sandbox.shop.test${path}`, { headers: { Authorization: `Bearer ${key}` } }),
    );
    bodies.set(path, await response.text());
  }
  const server = createServer((request, response) => {
    const body = bodies.get(request.url ?? '') ?? '{"status":"error"}';
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  send({ port: server.address().port, key });
}

// Memory after a GC at once (RSS then still holds what the allocator has not yet given back after a burst of
// requests), and again after 1.5 s idle and two GCs, once it has settled.
process.on('message', async (message) => {
  if (message === 'memory') {
    globalThis.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    await new Promise((done) => setTimeout(done, 1500));
    globalThis.gc?.();
    globalThis.gc?.();
    send({ heapUsed, rss, rssSettled: process.memoryUsage().rss });
  }
});
process.on('disconnect', () => process.exit(0));
