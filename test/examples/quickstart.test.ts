// `npm run demo` as a user runs it: a child process, judged by its exit code and what it prints. A demo that
// leaves a server open never exits, and the spawn's timeout turns that into a failure here.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type SandboxServer } from '../../src/testing/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runDemo(env: Record<string, string | undefined>): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['SHOP_API_KEY', 'SHOP_API_BASE_URL', 'SHOP_LOG']) delete childEnv[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'examples/quickstart.ts'], {
      cwd: ROOT,
      env: childEnv,
      timeout: 45_000,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Lines that look like a stack trace, which the demo must never print. */
function stackLines(text: string): string[] {
  return text.split('\n').filter((line) => /^\s+at\s/.test(line));
}

describe('npm run demo without SHOP_API_KEY and SHOP_API_BASE_URL (the sandbox)', () => {
  let run: Run;
  beforeAll(async () => {
    run = await runDemo({});
  }, 60_000);

  it('exits 0 on its own, with every server closed', () => {
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Done: the sandbox and the webhook receiver are closed.');
  });

  it('walks the day in numbered steps, without stack traces or warnings', () => {
    const steps = run.stdout.match(/^\d+\. .+$/gm) ?? [];
    expect(steps.map((line) => line.replace(/\..*/, ''))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(stackLines(run.stdout + run.stderr)).toEqual([]);
    expect(run.stderr.replace(/^npm warn .*$/gm, '').trim()).toBe('');
  });

  it('books once through the injected 500: the retry with the same key is replayed', () => {
    expect(run.stdout).toMatch(/SDK log: POST \/v1\/range\/reservations failed \(HTTP 500\); retry 1 of 2/);
    expect(run.stdout).toMatch(
      /attempt 2, same key quickstart-1-lane-\d+-\d{4}-\d\d-\d\dT[\d:.]+Z: 201, Idempotent-Replayed: true/,
    );
    expect(run.stdout).toMatch(
      /reservation #\d+ is booked, .*reservations on that lane and hour: 1 \(booked once\)/,
    );
    expect(run.stdout).toMatch(/reservation #\d+ is checked_in/);
    expect(run.stdout).toMatch(/reservation #\d+ is completed/);
  });

  it('verifies every webhook and catches up from the feed with nothing left over', () => {
    expect(run.stdout).toContain('4 of 4 deliveries acknowledged; webhooks verified: 4');
    expect(run.stdout.match(/signature verified/g)).toHaveLength(4);
    expect(run.stdout).toContain('4 events in the feed: 4 already handled from webhooks, 0 new');
    expect(run.stdout).toMatch(/caught up to evt_\w+/);
  });
});

describe('npm run demo with SHOP_API_KEY and SHOP_API_BASE_URL (read-only against that shop)', () => {
  // A sandbox stands in for the real shop, so what the demo changes (nothing) can be checked.
  const sandbox = createSandbox({ now: new Date() });
  let server: SandboxServer;
  beforeAll(async () => {
    server = await sandbox.listen();
  });
  afterAll(() => server.close());

  async function reservationCount(): Promise<number> {
    const key = sandbox.createKey();
    const response = await sandbox.fetch(`${sandbox.baseUrl}/v1/range/reservations?limit=200`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    return ((await response.json()) as { data: unknown[] }).data.length;
  }

  it('reads lanes, availability, reservations and rentals, says so, and changes nothing', async () => {
    const before = await reservationCount();
    const emails = sandbox.sentEmails().length;

    const run = await runDemo({ SHOP_API_KEY: sandbox.createKey(), SHOP_API_BASE_URL: server.url });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('runs read-only against');
    expect(run.stdout).toMatch(/^1\. Lanes\n {3}\d+ lanes/m);
    expect(run.stdout).toMatch(/^2\. Availability tomorrow for a party of 2\n {3}.+: \d+ free/m);
    expect(run.stdout).toMatch(/^3\. Upcoming reservations\n {3}#\d+ booked/m);
    expect(run.stdout).toMatch(/^4\. Rental fleet\n {3}\d+ guns: /m);
    expect(run.stdout).not.toContain('sandbox');
    expect(await reservationCount()).toBe(before);
    expect(sandbox.sentEmails()).toHaveLength(emails);
  }, 60_000);

  it('skips what the key may not read, naming the permission, and still exits 0', async () => {
    const key = sandbox.createKey({ permissions: ['products:read'] });
    const run = await runDemo({ SHOP_API_KEY: key, SHOP_API_BASE_URL: server.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('skipped: PermissionDeniedError: 403 INSUFFICIENT_SCOPE');
    expect(run.stdout).toContain('(the key needs range:read)');
  }, 60_000);

  it('stops with exit 1 and one readable line for a key the shop does not know, never the key itself', async () => {
    const run = await runDemo({ SHOP_API_KEY: 'sk_test_not_a_key_4242', SHOP_API_BASE_URL: server.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/The quickstart stopped: AuthenticationError: 401 INVALID_API_KEY/);
    expect(stackLines(run.stdout + run.stderr)).toEqual([]);
    expect(run.stdout + run.stderr).not.toContain('sk_test_not_a_key_4242');
  }, 60_000);
});
