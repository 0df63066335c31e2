// The shops of bench/fleet-bench.ts, in a process of their own: N sandbox shops (Established plan: 60 calls a
// minute each, no daily cap; 2,000 extra reservations each), each on its own loopback port, on a real clock
// (a frozen one never ends its minute window: after its 60th call a shop answers every call with 429), until
// the parent closes stdin. Prints one JSON line: { shops: [{ name, apiKey, baseUrl, webhookSecrets }] }.
// Then reads commands from stdin, one a line:
// - `endpoints <url>`: each shop sends every event type to `<url>/webhooks/<name>`, signed with its secret.
// - `change <n>`: shop n (from 1) rings up a sale at its register (its events, and no API call: the change
//   takes nothing from the shop's rate limit, which the fleet uses whole); prints `{ "events": k }`.
import { createInterface } from 'node:readline';
import { secretHex } from '../src/testing/random.js';
import { createSandbox, type Sandbox } from '../src/testing/sandbox.js';

const count = Number(process.argv[2] ?? 200);
/** Extra reservations per shop, so a backfill outlasts the measuring window. */
const reservations = Number(process.argv[3] ?? 2000);
const shops: { name: string; apiKey: string; baseUrl: string; webhookSecrets: string[] }[] = [];
const sandboxes: Sandbox[] = [];
const servers: { close(): Promise<void> }[] = [];
for (let index = 1; index <= count; index++) {
  const sandbox = createSandbox({
    seed: index,
    clock: 'real',
    rateLimits: { perMinute: 60, perDay: null },
    records: { reservations },
  });
  const server = await sandbox.listen();
  servers.push(server);
  sandboxes.push(sandbox);
  shops.push({
    name: `bench-${index}`,
    apiKey: sandbox.createKey(),
    baseUrl: server.url,
    webhookSecrets: [`whsec_${secretHex(24)}`],
  });
}
process.stdout.write(`${JSON.stringify({ shops })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const [command, argument] = line.split(' ');
  if (command === 'endpoints') {
    sandboxes.forEach((sandbox, index) => {
      sandbox.webhooks.addEndpoint({
        url: `${argument}/webhooks/${shops[index]!.name}`,
        types: ['*'],
        secret: shops[index]!.webhookSecrets[0]!,
      });
    });
  } else if (command === 'change') {
    // Answered with the events the change made: `{ "events": k }`.
    void sandboxes[Number(argument) - 1]
      ?.trigger('sale.completed')
      .then((result) => process.stdout.write(`${JSON.stringify({ events: result.events.length })}\n`));
  }
});
lines.on('close', async () => {
  await Promise.all(servers.map((server) => server.close()));
  process.exit(0);
});
