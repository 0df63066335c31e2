// Drives every recipe as CI does: starts it as its own process on a free port of 127.0.0.1, then sends a
// signed delivery (accepted), the same body under a forged signature (400) and the signed delivery again
// (2xx, and the recipe's handler must not run a second time: it logs one `handled <id>` line per run).
// Then once more without SHOP_WEBHOOK_SECRET: a recipe must never fall back to a secret anyone can read. Those
// that build the handler at start-up exit with WebhookConfigurationError; those that build it on the first
// request (Hono, Workers, Next.js: their secret arrives with the request's env or after `next build`) answer
// a signed delivery 500, so the sender retries until the secret is set.
// Next.js is driven through `next start` on the build of `npm run build:next`.
//
// Run: npx tsx harness/drive.ts [name...]   (after `npm run build` at the root and, for nextjs, `npm run build:next`)
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { signPayload } from 'shop-mgmt/webhooks';

const SECRET = 'whsec_examples_secret';
const here = new URL('..', import.meta.url).pathname;
const tsx = `${here}node_modules/.bin/tsx`;

const recipes: Record<string, string[]> = {
  'node-http': [tsx, 'webhooks/node-http.ts'],
  express: [tsx, 'webhooks/express.ts'],
  fastify: [tsx, 'webhooks/fastify.ts'],
  koa: [tsx, 'webhooks/koa.ts'],
  'hono-node': [tsx, 'webhooks/hono-node.ts'],
  'hono-worker': [tsx, 'harness/run-worker.ts'],
  nestjs: [tsx, 'webhooks/nestjs.ts'],
  lambda: [tsx, 'harness/lambda-local.ts'],
  nextjs: [`${here}node_modules/.bin/next`, 'start', 'nextjs', '--hostname', '127.0.0.1', '--port'],
};

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The recipes that build their webhook handler on the first request rather than at start-up. */
const lazy = new Set(['hono-node', 'hono-worker', 'nextjs']);

/** Starts a recipe and resolves once it prints that it listens (Next.js: "Ready"). */
async function start(
  name: string,
  port: number,
  secret = SECRET,
): Promise<{ child: ChildProcess; output: () => string }> {
  const [command = '', ...args] = recipes[name] ?? [];
  if (name === 'nextjs') args.push(String(port));
  const child = spawn(command, args, {
    cwd: here,
    env: { ...process.env, SHOP_WEBHOOK_SECRET: secret, PORT: String(port), NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 60_000;
  while (!/listening|Ready/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`${name} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output: () => output };
}

function deliver(url: string, body: string, signature: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-signature': signature },
    body,
  });
}

function eventBody(id: string): string {
  return JSON.stringify({
    id,
    object: 'event',
    type: 'customer.created',
    api_version: '2026-09-24',
    created_at: new Date().toISOString(),
    livemode: false,
    data: { object: { object: 'customer', id: 1 } },
  });
}

/** Without the secret: no start (WebhookConfigurationError), or, for a lazy recipe, 500 and no handler run. */
async function driveWithoutSecret(name: string): Promise<string> {
  const port = await freePort();
  if (!lazy.has(name)) {
    const refused = await start(name, port, '').then(
      async ({ child }) => {
        child.kill('SIGTERM');
        await once(child, 'exit');
        return null;
      },
      (error: Error) => error.message,
    );
    if (refused === null || !refused.includes('WebhookConfigurationError'))
      throw new Error(`started without SHOP_WEBHOOK_SECRET: ${refused ?? 'it listened'}`);
    return 'no secret: refused to start';
  }
  const { child, output } = await start(name, port, '');
  try {
    const body = eventBody(`evt_${name.replace(/-/g, '_')}_nosecret`);
    const signature = await signPayload({ body, secret: SECRET });
    const answer = await deliver(`http://127.0.0.1:${port}/webhooks/shop`, body, signature);
    if (answer.status !== 500 || output().includes('handled '))
      throw new Error(`without SHOP_WEBHOOK_SECRET it answered ${answer.status}\n${output()}`);
    return 'no secret: 500';
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

async function drive(name: string): Promise<string> {
  const port = await freePort();
  const { child, output } = await start(name, port);
  try {
    const id = `evt_${name.replace(/-/g, '_')}_${Date.now()}`;
    const body = eventBody(id);
    const url = `http://127.0.0.1:${port}/webhooks/shop`;
    const signed = await signPayload({ body, secret: SECRET });
    const forged = await signPayload({ body, secret: 'whsec_not_the_secret' });
    const first = await deliver(url, body, signed);
    const bad = await deliver(url, body, forged);
    const again = await deliver(url, body, signed);
    const statuses = [first.status, bad.status, again.status];
    // The Worker's console output comes through miniflare's log: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const runs = output()
      .split('\n')
      .filter((line) => line.includes(`handled customer.created ${id}`)).length;
    const ok = first.ok && bad.status === 400 && again.ok && runs === 1;
    if (!ok) throw new Error(`statuses ${statuses}, handler ran ${runs} times\n${output()}`);
    return `statuses ${statuses.join('/')}, handler ran once`;
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(recipes);
let failed = 0;
for (const name of names) {
  const started = performance.now();
  try {
    const detail = `${await drive(name)}; ${await driveWithoutSecret(name)}`;
    console.log(`ok   ${name.padEnd(12)} ${Math.round(performance.now() - started)} ms  ${detail}`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${name.padEnd(12)} ${(error as Error).message}`);
  }
}
console.log(`recipes: ${names.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
