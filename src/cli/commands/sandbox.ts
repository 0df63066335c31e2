import { defineCommand } from 'citty';
import { readEnv } from '../../internal/env.js';
import { writeShopsFile } from '../../sync/fleet/registry.js';
import type { DeliveryActivity } from '../../testing/activity.js';
import type { DeliveryAttempt } from '../../testing/events/delivery.js';
import type { Permission } from '../../testing/http/keys.js';
import type { SandboxPlan, SandboxRateLimits } from '../../testing/options.js';
import { processAccess } from '../../testing/process-access.js';
import { createSandbox, type Sandbox } from '../../testing/sandbox.js';
import { listen, type SandboxServer } from '../../testing/server.js';
import { createShopsSandbox, MAX_SHOPS } from '../../testing/shops.js';
import { CONTROL_PREFIX, SandboxControl, ShopsControl } from '../control.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { clockTime, type Output } from '../output.js';
import { clockSpeed, counts, httpUrl, list, wholeNumber } from '../parse.js';
import { run, untilSignal } from '../run.js';
import { loadState, lockState, StateSaver } from '../state-file.js';

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
    'forward-to': {
      type: 'string',
      description:
        'The webhook endpoint (every event type) at this URL, signed with SHOP_WEBHOOK_SECRET when set; replaces the endpoints of a --state shop',
    },
    'add-endpoint': {
      type: 'boolean',
      description:
        'With --state: add the --forward-to endpoint beside the saved ones instead of replacing them',
    },
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
    'rate-limit': {
      type: 'string',
      description: "Requests a minute for the shop (replaces the plan's, no daily cap), or off for none",
    },
    'reproducible-ids': {
      type: 'boolean',
      description: 'Event and delivery ids from --seed (the same on every run); by default new ones each run',
    },
    shops: {
      type: 'string',
      description:
        'Serve this many shops (shop-1 ... shop-N, seeds --seed, --seed + 1, ...) at one URL, told apart by key',
    },
    'shops-file': {
      type: 'string',
      description:
        'With --shops: write the shops registry (keys, secrets, URL; mode 0600) here, for sync --shops',
    },
    'walk-idle-ms': {
      type: 'string',
      description: "With --shops: how late a list walk's next page may be before the walk stops counting",
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      if (flags.shops !== undefined) return runShops(flags, output);
      if (flags['shops-file'] !== undefined) throw usageError('--shops-file needs --shops');
      if (flags['walk-idle-ms'] !== undefined) throw usageError('--walk-idle-ms needs --shops');
      const clock = clockSpeed(flags.clock);
      const port = wholeNumber(flags.port, 'port', 0, 65_535)!;
      const seed = wholeNumber(flags.seed, 'seed', 0, 2 ** 31)!;
      const forwardTo =
        flags['forward-to'] === undefined ? undefined : httpUrl(flags['forward-to'], 'forward-to');
      const locations = list(flags.locations)?.map((id) => wholeNumber(id, 'locations', 1, 1_000_000)!);
      const permissions = list(flags.permissions) as Permission[] | undefined;
      const records = counts(flags.records, 'records');
      const rateLimits = rateLimitFlag(flags['rate-limit']);
      const envSecret = webhookSecretFromEnv();
      if (flags['add-endpoint'] && !forwardTo) throw usageError('--add-endpoint needs --forward-to');
      if (flags.now !== undefined && Number.isNaN(Date.parse(flags.now))) {
        throw usageError(`--now must be an ISO-8601 time, got ${JSON.stringify(flags.now)}`);
      }
      const lock = flags.state ? lockState(flags.state) : null;
      const opened = await openSandbox(flags, clock, seed, records, rateLimits, output);
      const { sandbox } = opened;
      const endpoint = forwardTo
        ? sandboxOrUsage(() =>
            forwardingEndpoint(sandbox, forwardTo, envSecret, flags['add-endpoint'] === true, output),
          )
        : null;
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
      const stopTicking = tick(sandbox, output);
      await saver?.save(true);

      // Listen for Ctrl-C before saying ready: a signal right after the ready line must stop it cleanly.
      const stopped = untilSignal();
      const endpoints = sandbox.webhooks
        .endpoints()
        .filter((saved) => saved.enabled)
        .map((saved) => ({ id: saved.id, url: saved.url }));
      // Without --forward-to, a --state file's endpoint still signs: its secret is printed as on a first run.
      const signing = endpoint ?? savedEndpoint(sandbox, endpoints[0]);
      output.record(
        {
          event: 'ready',
          url: server.url,
          key,
          webhookSecret: signing?.secret ?? null,
          endpointId: signing?.id ?? null,
          endpoints,
          state: flags.state ?? null,
          loaded: opened.loaded,
        },
        readyText(output, server.url, key, signing, endpoints, flags.state),
      );
      if (endpoints.length === 0) {
        output.note(
          'No --forward-to: no webhook endpoint, so the sandbox records no events (the service records only types some endpoint subscribes).',
        );
      }
      const signal = await stopped;
      output.note(`${signal}: stopping`);
      stopTicking();
      await server.close();
      await saver?.close();
      lock?.release();
      return EXIT.ok;
    }),
});

/** What a --state file held when it was loaded (printed, and in the ready record). */
interface Loaded {
  readonly file: string;
  readonly savedAt: string;
  readonly clock: string;
  readonly keys: number;
  readonly endpoints: { id: string; url: string; enabled: boolean }[];
  readonly events: number;
}

/** The shop: the one in --state when the file exists, else a new one from the flags. */
async function openSandbox(
  flags: {
    state?: string;
    plan?: string;
    now?: string;
    seed: string;
    records?: string;
    'reproducible-ids'?: boolean;
  },
  clock: { mode: 'frozen' | 'real'; speed: number | null },
  seed: number,
  records: Record<string, number> | undefined,
  rateLimits: SandboxRateLimits | undefined,
  output: Output,
): Promise<{ sandbox: Sandbox; loaded: Loaded | null }> {
  const live = {
    clock: clock.mode,
    ...(clock.speed !== null ? { clockSpeed: clock.speed } : {}),
    autoDeliver: true,
    reproducibleIds: flags['reproducible-ids'] === true,
    ...(rateLimits ? { rateLimits } : {}),
  };
  const restored = flags.state ? await loadState(flags.state, live) : null;
  if (!restored) {
    const sandbox = sandboxOrUsage(() =>
      createSandbox({
        ...live,
        seed,
        ...(flags.plan ? { plan: flags.plan as SandboxPlan } : {}),
        ...(flags.now ? { now: flags.now } : {}),
        ...(records ? { records } : {}),
      }),
    );
    return { sandbox, loaded: null };
  }
  const { sandbox, savedAt } = restored;
  // A real clock restarts at the present (time went on while the process was down); the others where saved.
  if (clock.mode === 'real' && clock.speed === null && Date.now() > sandbox.clock.nowMs()) {
    sandbox.clock.set(Date.now());
  }
  if (flags.seed !== '1' || flags.plan || flags.records || flags.now) {
    output.note(
      `--state ${flags.state} holds a shop already: --seed, --plan, --now and --records are ignored`,
    );
  }
  const loaded: Loaded = {
    file: flags.state!,
    savedAt,
    clock: sandbox.clock.now().toISOString(),
    keys: processAccess(sandbox).keyCount(),
    endpoints: sandbox.webhooks
      .endpoints()
      .map((saved) => ({ id: saved.id, url: saved.url, enabled: saved.enabled })),
    events: processAccess(sandbox).eventCount(),
  };
  output.note(
    [
      `Loaded ${loaded.file} (saved ${loaded.savedAt}): clock at ${loaded.clock}, ${loaded.keys} key(s), ${loaded.events} event(s) in the feed,`,
      loaded.endpoints.length === 0
        ? '  no webhook endpoint'
        : `  webhook endpoints: ${loaded.endpoints.map((saved) => `${saved.url} (${saved.id}${saved.enabled ? '' : ', disabled'})`).join(', ')}`,
    ].join('\n'),
  );
  return { sandbox, loaded };
}

/** `--rate-limit 120` -> 120 a minute, no daily cap; `off` -> no limit at all. */
function rateLimitFlag(value: string | undefined): SandboxRateLimits | undefined {
  if (value === undefined) return undefined;
  if (value === 'off') return { perMinute: Number.MAX_SAFE_INTEGER, perDay: null };
  return { perMinute: wholeNumber(value, 'rate-limit', 1, 1_000_000)!, perDay: null };
}

/** SHOP_WEBHOOK_SECRET when set: the secret the --forward-to endpoint signs with (and `listen` too). */
function webhookSecretFromEnv(): string | undefined {
  const secret = readEnv('SHOP_WEBHOOK_SECRET');
  if (secret === undefined || secret === '') return undefined;
  if (!secret.startsWith('whsec_')) {
    throw usageError('SHOP_WEBHOOK_SECRET must be a whsec_ secret (as `sandbox` prints it), or unset');
  }
  return secret;
}

function readyText(
  output: Output,
  url: string,
  key: string,
  endpoint: { id: string; secret: string; url: string } | null,
  endpoints: { id: string; url: string }[],
  state: string | undefined,
): string {
  const lines = [
    `${output.paint('green', 'Sandbox ready')} at ${output.paint('bold', url)}. In another terminal (listen and your receiver use the same secret):`,
    '',
    `  export SHOP_API_BASE_URL=${url}`,
    `  export SHOP_API_KEY=${key}`,
  ];
  if (endpoint) lines.push(`  export SHOP_WEBHOOK_SECRET=${endpoint.secret}`);
  lines.push('');
  for (const saved of endpoints) {
    lines.push(
      saved.id === endpoint?.id
        ? `  webhooks to ${saved.url} (${saved.id}), signed with SHOP_WEBHOOK_SECRET at the real time`
        : `  webhooks also to ${saved.url} (${saved.id}, kept from ${state})`,
    );
  }
  if (state) lines.push(`  state saved to ${state}`);
  lines.push('  Ctrl-C to stop');
  return lines.join('\n');
}

/**
 * The endpoint for --forward-to: the one the shop already has for that URL, or a new one (signed with
 * SHOP_WEBHOOK_SECRET when set). The shop's other endpoints (a --state file's) are removed, unless
 * `add` (--add-endpoint) keeps them.
 */
function forwardingEndpoint(
  sandbox: Sandbox,
  url: string,
  envSecret: string | undefined,
  add: boolean,
  output: Output,
): { id: string; secret: string; url: string } {
  const all = sandbox.webhooks
    .endpoints()
    .map((saved) => ({ ...saved, secrets: processAccess(sandbox).endpointSecrets(saved.id) }));
  if (!add) {
    for (const other of all.filter((saved) => saved.url !== url)) {
      sandbox.webhooks.removeEndpoint(other.id);
      output.note(
        `--forward-to replaces the saved endpoint ${other.url} (${other.id}); --add-endpoint keeps it`,
      );
    }
  }
  const existing = all.find((saved) => saved.url === url);
  if (existing && (envSecret === undefined || existing.secrets.includes(envSecret))) {
    if (!existing.enabled) sandbox.webhooks.setEnabled(existing.id, true);
    return { id: existing.id, secret: envSecret ?? existing.secrets[0]!, url };
  }
  if (existing) {
    // SHOP_WEBHOOK_SECRET changed since the state was saved: the endpoint takes the secret set now.
    sandbox.webhooks.removeEndpoint(existing.id);
  }
  const added = sandbox.webhooks.addEndpoint({
    url,
    types: ['*'],
    ...(envSecret ? { secret: envSecret } : {}),
  });
  return { ...added, url };
}

/** A saved endpoint with the secret it signs with now, or null. */
function savedEndpoint(
  sandbox: Sandbox,
  saved: { id: string; url: string } | undefined,
): { id: string; secret: string; url: string } | null {
  const secret = saved ? processAccess(sandbox).endpointSecrets(saved.id)[0] : undefined;
  return saved && secret ? { ...saved, secret } : null;
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
    throw listenError(error, port);
  }
}

/** Why the process cannot listen on `port`, with the fix. */
function listenError(error: unknown, port: number): CliError {
  const code = (error as { code?: string }).code;
  const fix =
    code === 'EADDRINUSE'
      ? ': another process holds that port. Give another with --port, or --port 0 for any free one (the ready line prints the URL)'
      : '';
  return new CliError(
    `cannot listen on 127.0.0.1:${port} (${code ?? (error as Error).message})${fix}`,
    EXIT.unreachable,
  );
}

/** Sends retries as they fall due and prints each delivery attempt. */
function tick(sandbox: Sandbox, output: Output): () => void {
  let printed = new Set<string>();
  const timer = setInterval(() => {
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

function printAttempt(
  output: Output,
  attempt: DeliveryAttempt | Omit<DeliveryActivity, 'kind'>,
  shop?: string,
): void {
  const ok = attempt.status === 'succeeded';
  const status = attempt.httpStatus ?? attempt.error ?? 'no answer';
  const { kind: _kind, ...fields } = attempt as DeliveryActivity;
  output.record(
    shop === undefined ? { event: 'delivery', ...fields } : { event: 'delivery', shop, ...fields },
    `${clockTime()} ${shop === undefined ? '' : `${shop} `}${attempt.eventType} ${attempt.eventId} -> ${output.paint(ok ? 'green' : 'red', String(status))} (${attempt.deliveryId}, attempt ${attempt.attempt})`,
  );
}

/** The flags `sandbox --shops` reads. */
interface ShopsFlags {
  shops?: string;
  'shops-file'?: string;
  'walk-idle-ms'?: string;
  port: string;
  seed: string;
  plan?: string;
  clock: string;
  now?: string;
  'forward-to'?: string;
  'add-endpoint'?: boolean;
  state?: string;
  permissions?: string;
  locations?: string;
  records?: string;
  'rate-limit'?: string;
  'reproducible-ids'?: boolean;
}

/**
 * `sandbox --shops N`: N shops at one URL, told apart by key (`createShopsSandbox`), their registry written
 * to --shops-file for `sync --shops`, --forward-to's `{shop}` standing for each shop's name.
 */
async function runShops(flags: ShopsFlags, output: Output): Promise<number> {
  const count = wholeNumber(flags.shops, 'shops', 1, MAX_SHOPS)!;
  if (flags.state !== undefined) throw usageError('--state keeps one shop: it cannot be used with --shops');
  if (flags['add-endpoint']) throw usageError('--add-endpoint goes with --state, not --shops');
  const clock = clockSpeed(flags.clock);
  const port = wholeNumber(flags.port, 'port', 0, 65_535)!;
  const seed = wholeNumber(flags.seed, 'seed', 0, 2 ** 31)!;
  const walkIdleMs = wholeNumber(flags['walk-idle-ms'], 'walk-idle-ms', 0, 3_600_000);
  const template = flags['forward-to'];
  if (template !== undefined) httpUrl(template.replaceAll('{shop}', 'shop'), 'forward-to');
  const locations = list(flags.locations)?.map((id) => wholeNumber(id, 'locations', 1, 1_000_000)!);
  const permissions = list(flags.permissions) as Permission[] | undefined;
  const records = counts(flags.records, 'records');
  const rateLimits = rateLimitFlag(flags['rate-limit']);
  if (flags.now !== undefined && Number.isNaN(Date.parse(flags.now))) {
    throw usageError(`--now must be an ISO-8601 time, got ${JSON.stringify(flags.now)}`);
  }
  if (readEnv('SHOP_WEBHOOK_SECRET')) {
    output.note(
      'SHOP_WEBHOOK_SECRET is not used with --shops: each shop signs with its own secret (--shops-file)',
    );
  }
  const key = { ...(permissions ? { permissions } : {}), ...(locations ? { locations } : {}) };
  const started = performance.now();
  const shops = sandboxOrUsage(() =>
    createShopsSandbox({
      shops: Array.from({ length: count }, () => ({ key })),
      seed,
      clock: clock.mode,
      ...(clock.speed !== null ? { clockSpeed: clock.speed } : {}),
      autoDeliver: true,
      reproducibleIds: flags['reproducible-ids'] === true,
      ...(rateLimits ? { rateLimits } : {}),
      ...(flags.plan ? { plan: flags.plan as SandboxPlan } : {}),
      ...(flags.now ? { now: flags.now } : {}),
      ...(records ? { records } : {}),
      ...(walkIdleMs !== undefined ? { walkIdleMs } : {}),
    }),
  );
  const createdMs = Math.round(performance.now() - started);
  if (template !== undefined) sandboxOrUsage(() => shops.addWebhookEndpoints(template));
  const control = new ShopsControl(shops);
  let server: SandboxServer;
  try {
    server = await shops.listen({
      port,
      control: {
        serves: (path) => path.startsWith(CONTROL_PREFIX),
        handle: (request) => control.handle(request),
      },
    });
  } catch (error) {
    throw listenError(error, port);
  }
  const file = flags['shops-file'];
  if (file !== undefined) {
    try {
      writeShopsFile(file, shops.registry(server.url));
    } catch (error) {
      await server.close();
      throw new CliError(`cannot write --shops-file ${file}: ${(error as Error).message}`, EXIT.usage);
    }
  }
  const unfollow = shops.shops.map((shop) =>
    processAccess(shop.sandbox).activity.follow(({ activity }) => {
      if (activity.kind === 'delivery') printAttempt(output, activity, shop.name);
    }),
  );
  const stopped = untilSignal();
  const names = shops.shops.map((shop) => shop.name);
  output.record(
    {
      event: 'ready',
      url: server.url,
      shops: shops.shops.map((shop) => ({
        name: shop.name,
        key: shop.apiKey,
        webhookSecret: shop.webhookSecret,
      })),
      shopsFile: file ?? null,
      forwardTo: template ?? null,
      createdMs,
    },
    [
      `${output.paint('green', 'Sandbox ready')} at ${output.paint('bold', server.url)}: ${count} shop(s), ${names.length > 3 ? `${names[0]} ... ${names.at(-1)}` : names.join(', ')}, told apart by key.`,
      file === undefined
        ? '  Their keys and secrets: --shops-file FILE writes them (mode 0600) for `shop-mgmt sync --shops FILE`.'
        : `  Registry (keys, webhook secrets, URL; mode 0600) in ${file}: shop-mgmt sync --shops ${file}`,
      template === undefined
        ? '  No --forward-to: no webhook endpoints, so the shops record no events.'
        : `  webhooks to ${template}, each shop signing with its own secret`,
      '  Ctrl-C to stop',
    ].join('\n'),
  );
  const signal = await stopped;
  output.note(`${signal}: stopping`);
  for (const stop of unfollow) stop();
  await server.close();
  return EXIT.ok;
}
