import { defineCommand } from 'citty';
import type { DeliveryAttempt } from '../../testing/events/delivery.js';
import type { Permission } from '../../testing/http/keys.js';
import type { SandboxPlan } from '../../testing/options.js';
import { createSandbox, type Sandbox } from '../../testing/sandbox.js';
import { listen, type SandboxServer } from '../../testing/server.js';
import { CONTROL_PREFIX, SandboxControl } from '../control.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { clockTime, type Output } from '../output.js';
import { clockSpeed, counts, httpUrl, list, wholeNumber } from '../parse.js';
import { run, untilSignal } from '../run.js';
import { loadState, StateSaver } from '../state-file.js';

/** How often the process sends retries that fell due and moves a sped-up clock. */
const TICK_MS = 250;

/** `shop-mgmt sandbox`: the sandbox as a long-running HTTP process. */
export const sandboxCommand = defineCommand({
  meta: {
    name: 'sandbox',
    description: 'Serve a stateful sandbox shop over HTTP on 127.0.0.1 until Ctrl-C.',
  },
  args: {
    port: { type: 'string', description: 'Port on 127.0.0.1 (0 for a free one)', default: '4010' },
    seed: { type: 'string', description: 'Seed of the generated shop (same seed, same shop)', default: '1' },
    plan: {
      type: 'enum',
      options: ['established', 'enterprise'],
      description: 'The shop plan (rate limits follow)',
    },
    clock: { type: 'string', description: 'frozen, real, or a speed such as 60x', default: 'real' },
    now: { type: 'string', description: 'Where the sandbox clock starts (ISO-8601; default: now)' },
    'forward-to': { type: 'string', description: 'Add a webhook endpoint for every event type at this URL' },
    state: { type: 'string', description: 'Save the shop to this JSON file and reload it on the next start' },
    permissions: {
      type: 'string',
      description: 'Permissions of the printed key, e.g. range:read,orders:write',
    },
    locations: { type: 'string', description: 'Location ids the printed key may see, e.g. 1,2' },
    records: {
      type: 'string',
      description: 'Bulk records for load tests, e.g. reservations=50000,customers=1000',
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const clock = clockSpeed(flags.clock);
      const port = wholeNumber(flags.port, 'port', 0, 65_535)!;
      const seed = wholeNumber(flags.seed, 'seed', 0, 2 ** 31)!;
      const forwardTo =
        flags['forward-to'] === undefined ? undefined : httpUrl(flags['forward-to'], 'forward-to');
      const locations = list(flags.locations)?.map((id) => wholeNumber(id, 'locations', 1, 1_000_000)!);
      const permissions = list(flags.permissions) as Permission[] | undefined;
      const records = counts(flags.records, 'records');
      if (flags.now !== undefined && Number.isNaN(Date.parse(flags.now))) {
        throw usageError(`--now must be an ISO-8601 time, got ${JSON.stringify(flags.now)}`);
      }
      const sandbox = await openSandbox(flags, clock, seed, records, output);
      const endpoint = forwardTo ? sandboxOrUsage(() => forwardingEndpoint(sandbox, forwardTo)) : null;
      const key = sandboxOrUsage(() =>
        sandbox.createKey({ ...(permissions ? { permissions } : {}), ...(locations ? { locations } : {}) }),
      );
      const saver = flags.state
        ? new StateSaver(sandbox, flags.state, (error) =>
            output.error(`could not save ${flags.state}: ${error.message}`),
          )
        : null;
      const control = new SandboxControl(sandbox, sandbox.createKey(), () => saver?.changed());
      const server = await serve(sandbox, control, port, () => saver?.changed());
      const stopTicking = tick(sandbox, clock.speed, output);
      await saver?.save(true);

      output.record(
        {
          event: 'ready',
          url: server.url,
          key,
          webhookSecret: endpoint?.secret ?? null,
          endpointId: endpoint?.id ?? null,
          state: flags.state ?? null,
        },
        readyText(output, server.url, key, endpoint, flags.state),
      );
      if (!forwardTo) {
        output.note(
          'No --forward-to: no webhook endpoint, so the sandbox records no events (the service records only types some endpoint subscribes).',
        );
      }
      const signal = await untilSignal();
      output.note(`${signal}: stopping`);
      stopTicking();
      await server.close();
      await saver?.close();
      return EXIT.ok;
    }),
});

/** The shop: the one in --state when the file exists, else a new one from the flags. */
async function openSandbox(
  flags: { state?: string; plan?: string; now?: string; seed: string; records?: string },
  clock: { mode: 'frozen' | 'real'; speed: number | null },
  seed: number,
  records: Record<string, number> | undefined,
  output: Output,
): Promise<Sandbox> {
  const live = { clock: clock.mode, autoDeliver: true };
  const restored = flags.state ? await loadState(flags.state, live) : null;
  if (!restored) {
    return sandboxOrUsage(() =>
      createSandbox({
        ...live,
        seed,
        ...(flags.plan ? { plan: flags.plan as SandboxPlan } : {}),
        ...(flags.now ? { now: flags.now } : {}),
        ...(records ? { records } : {}),
      }),
    );
  }
  // A real clock restarts at the present (time went on while the process was down); the others where saved.
  if (clock.mode === 'real' && clock.speed === null && Date.now() > restored.clock.nowMs()) {
    restored.clock.set(Date.now());
  }
  if (flags.seed !== '1' || flags.plan || flags.records || flags.now) {
    output.note(
      `--state ${flags.state} holds a shop already: --seed, --plan, --now and --records are ignored`,
    );
  }
  return restored;
}

function readyText(
  output: Output,
  url: string,
  key: string,
  endpoint: { id: string; secret: string; url: string } | null,
  state: string | undefined,
): string {
  const lines = [
    `${output.paint('green', 'Sandbox ready')} at ${output.paint('bold', url)}`,
    `  SHOP_API_BASE_URL=${url}`,
    `  SHOP_API_KEY=${key}`,
  ];
  if (endpoint) lines.push(`  webhooks to ${endpoint.url} signed with ${endpoint.secret} (${endpoint.id})`);
  if (state) lines.push(`  state saved to ${state}`);
  lines.push('  Ctrl-C to stop');
  return lines.join('\n');
}

/** The endpoint for --forward-to: the one a restored shop already has for that URL, or a new one. */
function forwardingEndpoint(sandbox: Sandbox, url: string): { id: string; secret: string; url: string } {
  const existing = sandbox.core.endpoints.all().find((endpoint) => endpoint.url === url);
  if (existing) {
    if (!existing.enabled) sandbox.webhooks.setEnabled(existing.id, true);
    return { id: existing.id, secret: existing.secrets[0]!, url };
  }
  return { ...sandbox.webhooks.addEndpoint({ url, types: ['*'] }), url };
}

/** Runs a sandbox call whose SandboxUsageError is the user's flag at fault. */
function sandboxOrUsage<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if ((error as Error).name === 'SandboxUsageError') throw usageError((error as Error).message);
    throw error;
  }
}

async function serve(
  sandbox: Sandbox,
  control: SandboxControl,
  port: number,
  changed: () => void,
): Promise<SandboxServer> {
  try {
    return await listen(
      async (request, info) => {
        if (new URL(request.url).pathname.startsWith(CONTROL_PREFIX)) return control.handle(request);
        const response = await sandbox.handle(request, info);
        if (request.method !== 'GET') changed();
        return response;
      },
      { port },
    );
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CliError(
      `cannot listen on 127.0.0.1:${port} (${code ?? (error as Error).message})`,
      EXIT.unreachable,
    );
  }
}

/** Sends retries as they fall due, moves a sped-up clock, and prints each delivery attempt. */
function tick(sandbox: Sandbox, speed: number | null, output: Output): () => void {
  const startMs = sandbox.clock.nowMs();
  const wallStart = performance.now();
  let printed = new Set<string>();
  const timer = setInterval(() => {
    if (speed !== null) sandbox.clock.set(startMs + (performance.now() - wallStart) * speed);
    void sandbox.webhooks.flush().then(() => {
      const attempts = sandbox.webhooks.deliveries();
      const next = new Set<string>();
      for (const attempt of attempts) {
        const id = `${attempt.deliveryId}#${attempt.attempt}`;
        next.add(id);
        if (!printed.has(id)) printAttempt(output, attempt);
      }
      printed = next;
    });
  }, TICK_MS);
  return () => clearInterval(timer);
}

function printAttempt(output: Output, attempt: DeliveryAttempt): void {
  const ok = attempt.status === 'succeeded';
  const status = attempt.httpStatus ?? attempt.error ?? 'no answer';
  output.record(
    { event: 'delivery', ...attempt },
    `${clockTime()} ${attempt.eventType} ${attempt.eventId} -> ${output.paint(ok ? 'green' : 'red', String(status))} (${attempt.deliveryId}, attempt ${attempt.attempt})`,
  );
}
