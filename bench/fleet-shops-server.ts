// The shops of bench/fleet-bench.ts, in a process of their own: N sandbox shops (Established plan: 60 calls a
// minute each, no daily cap; 2,000 extra reservations each), each on its own loopback port, until the parent closes stdin. Prints one JSON
// line: { shops: [{ name, apiKey, baseUrl }] }.
import { createSandbox } from '../src/testing/sandbox.js';

const count = Number(process.argv[2] ?? 200);
/** Extra reservations per shop, so a backfill outlasts the measuring window. */
const reservations = Number(process.argv[3] ?? 2000);
const shops: { name: string; apiKey: string; baseUrl: string }[] = [];
const servers: { close(): Promise<void> }[] = [];
for (let index = 1; index <= count; index++) {
  const sandbox = createSandbox({
    seed: index,
    rateLimits: { perMinute: 60, perDay: null },
    records: { reservations },
  });
  const server = await sandbox.listen();
  servers.push(server);
  shops.push({ name: `bench-${index}`, apiKey: sandbox.createKey(), baseUrl: server.url });
}
process.stdout.write(`${JSON.stringify({ shops })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await Promise.all(servers.map((server) => server.close()));
  process.exit(0);
});
