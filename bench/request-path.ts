/**
 * Which of the SDK's own source files one warmed `shop.range.reservations.create` runs, from the resource
 * method to the wire and back: `npx tsx bench/request-path.ts`. Not a timing: V8's precise coverage
 * (call counts per function) is reset after a first call (which loads the schemas, zod and ky), a second
 * call is made, and every file of src/ with a function that ran is listed with the functions that ran.
 * Libraries (ky, p-retry, zod) are counted apart. The server is a node:http one in this process that
 * answers every request with one reservation.
 */
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShopClient } from '../src/index.js';
import { recordEnvelope } from './transport-fixture.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const body = recordEnvelope();
const server = createServer((_req, res) => {
  res.writeHead(201, { 'content-type': 'application/json' }).end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as { port: number };
const shop = new ShopClient({ apiKey: 'sk_test_path', baseUrl: `http://127.0.0.1:${port}`, logLevel: 'off' });
const params = {
  resource_ids: [12],
  starts_at: '2026-10-01T15:00:00Z',
  ends_at: '2026-10-01T16:00:00Z',
  party_size: 2,
  customer: { email: 'dana@example.com', first_name: 'Dana', last_name: 'Reyes' },
};

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await shop.range.reservations.create(params);
await session.post('Profiler.takePreciseCoverage'); // resets the counts: the first call is not counted
await shop.range.reservations.create(params);
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
server.close();

const own = new Map<string, string[]>();
const libraries = new Set<string>();
for (const script of result) {
  if (!script.url.startsWith('file://')) continue;
  const file = relative(root, fileURLToPath(script.url));
  const ran = script.functions
    .filter((fn) => fn.ranges[0] && fn.ranges[0].count > 0)
    .map((fn) => fn.functionName || '(anonymous)');
  if (ran.length === 0) continue;
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
  if (library) {
    if (library !== 'tsx' && library !== 'esbuild') libraries.add(library);
  } else if (file.startsWith('src/')) own.set(file, [...new Set(ran)]);
}
for (const [file, functions] of [...own].sort()) console.log(`${file}: ${functions.join(', ')}`);
console.log(`\n${own.size} files of src/ ran; libraries: ${[...libraries].sort().join(', ')}`);
