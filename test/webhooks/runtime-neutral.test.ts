// `shop-mgmt/webhooks` claims to run on Bun, Deno and Workers, where there is no `process`, `Buffer` or
// `require` and HMAC comes from Web Crypto. Node cannot become those runtimes, but it can lose their
// differences: a child process deletes `process` and `global` (ESM has no `require`) and traps `Buffer`
// (Node's own Response needs it) before importing the built entry, then verifies deliveries through
// verifyWebhook and createWebhookHandler with a web Request, counting the Web Crypto calls. The same child
// with the globals kept must take node:crypto instead (no Web Crypto call), which shows the count tells the
// two paths apart.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const DIST_ENTRY = join(root, 'dist/webhooks/index.js');
const SECRET = 'whsec_runtime_neutral_0123456789';
const NOW = 1_790_000_000;

/** Newest modification time of the sources the webhooks entry is built from (as bench/webhooks.ts checks). */
function newestSource(): number {
  let newest = 0;
  for (const dir of ['src/webhooks', 'src/core/errors', 'src/generated']) {
    for (const name of readdirSync(join(root, dir))) {
      newest = Math.max(newest, statSync(join(root, dir, name)).mtimeMs);
    }
  }
  return newest;
}

interface Entry {
  readonly file: string;
  /** What was run: the built dist/ file, or a fresh build of src/ when dist/ is missing or stale. */
  readonly label: string;
}

/**
 * dist/webhooks/index.js when it is newer than its sources (always so in CI, where `.ci/run` builds before
 * testing); otherwise the same entry built now with the ESM options of tsup.config.ts into a temporary
 * directory, leaving dist/ alone for whatever else reads it.
 */
async function builtEntry(scratch: string): Promise<Entry> {
  if (existsSync(DIST_ENTRY) && statSync(DIST_ENTRY).mtimeMs >= newestSource()) {
    return { file: DIST_ENTRY, label: 'dist/webhooks/index.js' };
  }
  const { build } = await import('tsup');
  const configs = (await import('../../tsup.config.js')).default;
  const esm = (Array.isArray(configs) ? configs : [configs]).find(
    (config) => typeof config === 'object' && config.format?.includes('esm'),
  );
  if (!esm || typeof esm !== 'object')
    throw new Error('tsup.config.ts has no ESM build; run `npm run build`');
  const outDir = join(scratch, 'dist');
  await build({
    ...esm,
    entry: { 'webhooks/index': join(root, 'src/webhooks/index.ts') },
    outDir,
    dts: false,
    sourcemap: false,
    clean: false,
    silent: true,
    config: false,
  });
  const why = existsSync(DIST_ENTRY) ? 'is older than src/' : 'is not built';
  return {
    file: join(outDir, 'webhooks/index.js'),
    label: `src/webhooks built with tsup.config.ts's ESM options (dist/ ${why}; \`npm run build\` to test dist/)`,
  };
}

// Runs in the child. Reads its input and writes its report through a `process` kept in a local binding,
// then hides the Node-only globals from the module under test.
const RUNNER = `
const proc = globalThis.process;
const input = JSON.parse(proc.argv[2]);
const calls = { verify: 0, sign: 0, importKey: 0 };
const subtle = globalThis.crypto.subtle;
for (const name of Object.keys(calls)) {
  const original = subtle[name].bind(subtle);
  Object.defineProperty(subtle, name, {
    configurable: true,
    value: (...args) => { calls[name]++; return original(...args); },
  });
}
// The deliveries are built before the globals go: Node's own Request (an internal undici) needs \`global\`
// and \`Buffer\` to take a body, where a runtime that has Request natively needs neither.
const request = (body, headers) =>
  new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body });
const deliveries = [
  request(input.body, input.headers),
  request(input.body, input.headers),
  request(input.body, { ...input.headers, 'service-signature': input.badSignature }),
];
// Buffer cannot go (Node's own Response reads it to take a string body), so it is trapped instead: a read
// made by code in the entry's directory is recorded.
const sdkBufferReads = [];
if (input.hide) {
  for (const name of ['process', 'global', 'setImmediate', 'clearImmediate', 'require']) {
    delete globalThis[name];
  }
  const RealBuffer = globalThis.Buffer;
  Object.defineProperty(globalThis, 'Buffer', {
    configurable: true,
    get() {
      const reader = (new Error().stack ?? '').split('\\n')[2] ?? '';
      if (reader.includes(input.entryDir)) sdkBufferReads.push(reader.trim());
      return RealBuffer;
    },
  });
}
const hidden = {
  process: typeof globalThis.process,
  global: typeof globalThis.global,
  require: typeof globalThis.require,
};
const webhooks = await import(input.entry);
const report = { hidden, calls, sdkBufferReads };
try {
  const event = await webhooks.verifyWebhook({
    body: input.body, headers: input.headers, secret: input.secret, now: input.now,
  });
  report.verified = { id: event.id, type: event.type };
  try {
    await webhooks.verifyWebhook({
      body: input.body.replace('booked', 'bookeD'), headers: input.headers, secret: input.secret, now: input.now,
    });
    report.tampered = 'accepted';
  } catch (error) {
    report.tampered = error.reason ?? String(error);
  }
  const seen = [];
  const handler = webhooks.createWebhookHandler({
    secret: input.secret,
    now: input.now,
    onEvent: (event) => { seen.push(event.id); },
  });
  report.statuses = [];
  for (const delivery of deliveries) report.statuses.push((await handler(delivery)).status);
  report.seen = seen;
} catch (error) {
  report.error = String(error && error.stack || error);
}
report.calls = calls;
proc.stdout.write(JSON.stringify(report));
`;

interface Report {
  readonly hidden: { process: string; global: string; require: string };
  readonly calls: { verify: number; sign: number; importKey: number };
  /** Stack frames of the entry's own code that read the global Buffer. */
  readonly sdkBufferReads: string[];
  readonly verified?: { id: string; type: string };
  readonly tampered?: string;
  readonly statuses?: number[];
  readonly seen?: string[];
  readonly error?: string;
}

let scratch = '';
let entry: Entry;
let runner = '';

function runChild(hide: boolean): Report {
  const body = JSON.stringify({
    id: 'evt_runtime_neutral_1',
    object: 'event',
    type: 'range.reservation.booked',
    api_version: '2026-09-24',
    created_at: '2026-09-24T10:00:00Z',
    livemode: false,
    data: { object: { object: 'range_reservation', id: 1, status: 'booked' } },
  });
  // Signed here with node:crypto, not with the SDK's signer.
  const v1 = createHmac('sha256', SECRET).update(`${NOW}.`).update(body).digest('hex');
  const input = {
    hide,
    entry: pathToFileURL(entry.file).href,
    entryDir: pathToFileURL(dirname(dirname(entry.file))).href,
    secret: SECRET,
    now: NOW,
    body,
    headers: {
      'content-type': 'application/json',
      'service-event': 'range.reservation.booked',
      'service-event-id': 'evt_runtime_neutral_1',
      'service-delivery-id': 'dlv_runtime_neutral_1',
      'service-attempt': '1',
      'service-signature': `t=${NOW},v1=${v1}`,
    },
    badSignature: `t=${NOW},v1=${'0'.repeat(64)}`,
  };
  const child = spawnSync(process.execPath, [runner, JSON.stringify(input)], {
    cwd: scratch,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.stderr, 'child stderr').toBe('');
  expect(child.status, 'child exit status').toBe(0);
  return JSON.parse(child.stdout) as Report;
}

describe(`shop-mgmt/webhooks without Node's globals`, () => {
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'shop-mgmt-runtime-neutral-'));
    runner = join(scratch, 'runner.mjs');
    writeFileSync(runner, RUNNER);
    entry = await builtEntry(scratch);
    console.info(`runtime-neutral: testing ${entry.label}`);
  }, 120_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  // A claim about CI alone: elsewhere it is reported skipped, never passed without checking anything.
  it.runIf(Boolean(process.env.CI))('tests the built dist/ in CI, where .ci/run builds first', () => {
    expect(entry.label).toBe('dist/webhooks/index.js');
  });

  it('tests a built entry that exists', () => {
    expect(existsSync(entry.file)).toBe(true);
  });

  it('verifies through verifyWebhook and the web Request handler with Web Crypto alone', () => {
    const report = runChild(true);
    expect(report.error).toBeUndefined();
    expect(report.hidden).toEqual({ process: 'undefined', global: 'undefined', require: 'undefined' });
    expect(report.sdkBufferReads).toEqual([]);
    expect(report.verified).toEqual({ id: 'evt_runtime_neutral_1', type: 'range.reservation.booked' });
    expect(report.tampered).toBe('signature_mismatch');
    // Processed, then a duplicate (2xx, not processed again), then a bad signature.
    expect(report.statuses?.[0]).toBeGreaterThanOrEqual(200);
    expect(report.statuses?.[0]).toBeLessThan(300);
    expect(report.statuses?.[1]).toBeGreaterThanOrEqual(200);
    expect(report.statuses?.[1]).toBeLessThan(300);
    expect(report.statuses?.[2]).toBe(400);
    expect(report.seen).toEqual(['evt_runtime_neutral_1']);
    // Two verifyWebhook calls and three deliveries, each checked with subtle.verify.
    expect(report.calls.verify).toBeGreaterThanOrEqual(5);
    expect(report.calls.importKey).toBeGreaterThanOrEqual(1);
  });

  it('takes node:crypto instead when Node is visible, so the Web Crypto count tells the paths apart', () => {
    const report = runChild(false);
    expect(report.error).toBeUndefined();
    expect(report.hidden.process).toBe('object');
    expect(report.verified?.id).toBe('evt_runtime_neutral_1');
    expect(report.statuses?.[2]).toBe(400);
    expect(report.calls).toEqual({ verify: 0, sign: 0, importKey: 0 });
  });
});
