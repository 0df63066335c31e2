import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { redact } from '../../internal/redact.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { type Credentials, resolveCredentials } from '../profiles.js';
import { run } from '../run.js';

/** The webhook signature tolerance of the reference (section 8): a clock further off fails deliveries. */
const TOLERANCE_S = 300;
/** A skew worth a warning before it breaks anything. */
const WARN_SKEW_S = 30;

type Status = 'ok' | 'warn' | 'fail';

interface Check {
  readonly check: string;
  readonly status: Status;
  readonly detail: string;
  readonly fix?: string;
}

const OPTIONAL_PACKAGES: ReadonlyArray<readonly [string, string]> = [
  ['better-sqlite3', 'sync into SQLite (node:sqlite stands in on Node 22.5+)'],
  ['pg', 'sync into Postgres'],
  ['ioredis', 'the Redis inbox or rate-limit store'],
  ['yaml', 'a YAML shops file'],
];

/** `shop-mgmt doctor`: one line a check, ok / warn / fail with the fix; exit 1 when any fails. */
export const doctorCommand = defineCommand({
  meta: {
    name: 'doctor',
    description:
      'Check the setup: Node, the key and base URL, the shop reachable, the clock against the server, the webhook secret, drivers, --db.',
  },
  args: {
    profile: { type: 'string', description: 'The profile to check (default: SHOP_PROFILE, else "default")' },
    db: {
      type: 'string',
      description: 'Also check that this sync database (SQLite file or postgres:// URL) opens',
    },
    json: { type: 'boolean', description: 'One JSON object a check' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const checks: Check[] = [];
      const say = (check: Check) => {
        checks.push(check);
        print(output, check);
      };
      const major = Number(process.versions.node.split('.')[0]);
      say(
        major >= 20
          ? { check: 'node', status: 'ok', detail: `Node.js ${process.versions.node}` }
          : {
              check: 'node',
              status: 'fail',
              detail: `Node.js ${process.versions.node}`,
              fix: 'install Node.js 20 or later',
            },
      );
      let credentials: Credentials | null = null;
      try {
        credentials = await resolveCredentials(flags.profile);
      } catch (error) {
        say({ check: 'profile', status: 'fail', detail: (error as Error).message });
      }
      if (credentials) {
        for (const check of await shopChecks(credentials)) say(check);
        say(secretCheck(credentials));
      }
      say(driversCheck());
      if (flags.db !== undefined) say(await databaseCheck(flags.db));
      const failed = checks.filter((check) => check.status === 'fail').length;
      const warned = checks.filter((check) => check.status === 'warn').length;
      output.note(
        failed > 0
          ? `${failed} check${failed === 1 ? '' : 's'} failed`
          : `all good${warned > 0 ? ` (${warned} warning${warned === 1 ? '' : 's'})` : ''}`,
      );
      return failed > 0 ? EXIT.failed : EXIT.ok;
    }),
});

function print(output: Output, check: Check): void {
  const colour = check.status === 'ok' ? 'green' : check.status === 'warn' ? 'yellow' : 'red';
  output.record(
    { check: check.check, status: check.status, detail: check.detail, fix: check.fix ?? null },
    `${output.paint(colour, check.status.padEnd(4))} ${check.check.padEnd(12)} ${check.detail}${check.fix ? `: ${check.fix}` : ''}`,
  );
}

/** The key, the base URL, the shop reachable and the clock, from one GET /v1/me. */
async function shopChecks(credentials: Credentials): Promise<Check[]> {
  const checks: Check[] = [];
  if (!credentials.apiKey) {
    checks.push({
      check: 'key',
      status: 'fail',
      detail: 'no API key',
      fix: 'run shop-mgmt login (or --profile NAME), or set SHOP_API_KEY',
    });
  }
  if (!credentials.baseUrl) {
    checks.push({
      check: 'base url',
      status: 'fail',
      detail: 'no base URL',
      fix: 'set SHOP_API_BASE_URL, or shop-mgmt login --base-url URL',
    });
  }
  if (!credentials.apiKey || !credentials.baseUrl) return checks;
  let url: URL;
  try {
    url = new URL(credentials.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    checks.push({
      check: 'base url',
      status: 'fail',
      detail: `${JSON.stringify(credentials.baseUrl)} (${credentials.baseUrlSource}) is not an http(s) URL`,
      fix: 'give the API’s address, e.g. https://api.example-shop.com',
    });
    return checks;
  }
  // The SDK drops one trailing /v1 and adds its own: a /v1 left after that is in every request twice.
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  const doubled = /(^|\/)v1(\/|$)/.test(path);
  const fixedUrl = `${url.origin}${path.replace(/\/v1(?=\/|$)/g, '')}`;
  if (doubled) {
    checks.push({
      check: 'base url',
      status: 'fail',
      detail: `${credentials.baseUrl} (${credentials.baseUrlSource}) holds /v1 and the SDK adds /v1 itself: requests would go to ${url.origin}${path}/v1/...`,
      fix: `use ${fixedUrl}`,
    });
  } else {
    checks.push({
      check: 'base url',
      status: 'ok',
      detail: `${credentials.baseUrl} (${credentials.baseUrlSource})`,
    });
  }
  const target = `${url.origin}${path}/v1/me`;
  let response: Response;
  const sent = Date.now();
  try {
    response = await fetch(target, {
      headers: { authorization: `Bearer ${credentials.apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    checks.push({
      check: 'reachable',
      status: 'fail',
      detail: `${url.origin} did not answer (${cause})`,
      fix: 'check the address and that the shop (or `shop-mgmt sandbox`) is running',
    });
    return checks;
  }
  const received = Date.now();
  checks.push({
    check: 'reachable',
    status: 'ok',
    detail: `${url.origin} answered in ${received - sent} ms`,
  });
  const body = (await response.json().catch(() => null)) as {
    data?: Record<string, unknown>;
    error?: { code?: string; message?: string };
  } | null;
  const code = body?.error?.code ?? null;
  if (response.ok && body?.data) {
    const environment =
      typeof body.data.environment === 'string' ? body.data.environment : 'environment not shown';
    checks.push({
      check: 'key',
      status: 'ok',
      detail: `${credentials.keySource}: accepted (${environment})`,
    });
  } else if (response.status === 401 || response.status === 403) {
    checks.push({
      check: 'key',
      status: 'fail',
      detail: `${credentials.keySource}: refused, ${response.status} ${code ?? ''}`.trim(),
      fix:
        code === 'WRONG_ENVIRONMENT'
          ? 'a live key on the sandbox or a sandbox key on live: use the key of this environment'
          : code === 'IP_NOT_ALLOWED'
            ? 'the key has an IP allowlist that excludes this machine'
            : 'check the key, or store a new one: shop-mgmt login',
    });
  } else if (response.status === 404) {
    checks.push({
      check: 'key',
      status: 'fail',
      detail: `${target} answered 404: the base URL does not serve the API there`,
      fix: doubled ? `use ${fixedUrl}` : 'check the base URL (its host and path, without /v1)',
    });
  } else {
    checks.push({
      check: 'key',
      status: 'fail',
      detail: `GET /v1/me answered ${response.status} ${code ?? ''}`.trim(),
      fix: redact(body?.error?.message ?? 'see shop-mgmt whoami'),
    });
  }
  checks.push(clockCheck(response.headers.get('date'), (sent + received) / 2));
  return checks;
}

/** The local clock against the server's Date header (1-second precision). */
export function clockCheck(dateHeader: string | null, now: number): Check {
  const server = dateHeader ? Date.parse(dateHeader) : Number.NaN;
  if (!Number.isFinite(server)) {
    return { check: 'clock', status: 'warn', detail: 'the server sent no Date header to compare with' };
  }
  const skew = Math.round((now - server) / 1000);
  const said = `this machine is ${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} the server`;
  if (Math.abs(skew) > TOLERANCE_S) {
    return {
      check: 'clock',
      status: 'fail',
      detail: `${said}, beyond the 5-minute tolerance of webhook signatures`,
      fix: 'set the clock right (e.g. timedatectl set-ntp true): deliveries would be refused as too old or too new',
    };
  }
  if (Math.abs(skew) > WARN_SKEW_S) {
    return { check: 'clock', status: 'warn', detail: said, fix: 'sync the clock before it passes 5 minutes' };
  }
  return { check: 'clock', status: 'ok', detail: `${said} (within 5 minutes)` };
}

function secretCheck(credentials: Credentials): Check {
  const secrets = credentials.webhookSecrets;
  if (secrets.length === 0) {
    return {
      check: 'webhook',
      status: 'ok',
      detail: 'no webhook secret set (SHOP_WEBHOOK_SECRET; needed only to verify deliveries)',
    };
  }
  const bad = secrets.filter((secret) => !/^whsec_[A-Za-z0-9+/=_-]{16,}$/.test(secret));
  if (bad.length > 0) {
    return {
      check: 'webhook',
      status: 'fail',
      detail: `${bad.length} of ${secrets.length} webhook secret${secrets.length === 1 ? '' : 's'} not of the form whsec_...`,
      fix: 'copy the endpoint’s signing secret whole, whsec_ included, without spaces or quotes',
    };
  }
  return {
    check: 'webhook',
    status: 'ok',
    detail: `${secrets.length} whsec_ secret${secrets.length === 1 ? '' : 's'}`,
  };
}

/** Which optional drivers resolve, from the current folder (the partner's project) or beside the package. */
function driversCheck(): Check {
  const requires = [createRequire(join(process.cwd(), 'package.json')), createRequire(import.meta.url)];
  const found: string[] = [];
  const absent: string[] = [];
  for (const [name, use] of OPTIONAL_PACKAGES) {
    let version: string | null = null;
    for (const require of requires) {
      try {
        version = (require(`${name}/package.json`) as { version: string }).version;
        break;
      } catch {
        // not there: try the next
      }
    }
    if (version) found.push(`${name} ${version}`);
    else absent.push(`${name} (${use})`);
  }
  return {
    check: 'drivers',
    status: 'ok',
    detail: `${found.length > 0 ? found.join(', ') : 'none installed'}${absent.length > 0 ? `; not installed, needed only for: ${absent.join(', ')}` : ''}`,
  };
}

async function databaseCheck(target: string): Promise<Check> {
  const postgres = /^postgres(ql)?:\/\//i.test(target);
  if (!postgres) {
    const file = resolve(target);
    if (!existsSync(file)) {
      const folder = dirname(file);
      return existsSync(folder) && statSync(folder).isDirectory()
        ? { check: 'database', status: 'ok', detail: `${target} does not exist yet; sync creates it` }
        : {
            check: 'database',
            status: 'fail',
            detail: `${folder} does not exist`,
            fix: `mkdir -p ${folder}`,
          };
    }
  }
  const shown = postgres ? target.replace(/\/\/[^@/]*@/, '//[redacted]@') : target;
  try {
    const { openSyncDatabase } = await import('../../sync/engine/database.js');
    const database = await openSyncDatabase(target);
    try {
      await database.all('select 1 as one');
    } finally {
      await database.close();
    }
    return { check: 'database', status: 'ok', detail: `${shown} opens (${database.dialect})` };
  } catch (error) {
    return {
      check: 'database',
      status: 'fail',
      detail: `${shown}: ${redact((error as Error).message)}`,
      fix: postgres
        ? 'check that Postgres runs and the URL’s user, password and database'
        : 'check the file and its folder',
    };
  }
}
