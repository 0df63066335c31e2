// Helpers of the CLI tests: the built bin (dist/cli/index.js, or a fresh build when dist is missing or older
// than src/), spawned as a child process, and a real webhook receiver on 127.0.0.1.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/verify.js';

const root = resolve(import.meta.dirname, '../..');
const DIST_BIN = join(root, 'dist/cli/index.js');

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The bin to run: dist/cli/index.js when newer than every source (CI builds before testing), else the CLI
 * entry of tsup.config.ts built into node_modules/.cache (so `citty` still resolves), dist/ untouched. The
 * build is kept under the sources' newest time, so the CLI test files of one run share it (one build, not
 * one per file); builds of older sources are removed.
 */
export async function builtBin(): Promise<{ bin: string; cleanup: () => void }> {
  const newest = newestIn(join(root, 'src'));
  if (existsSync(DIST_BIN) && statSync(DIST_BIN).mtimeMs >= newest) {
    return { bin: DIST_BIN, cleanup: () => undefined };
  }
  const cache = join(root, 'node_modules/.cache');
  const shared = join(cache, `shop-mgmt-cli-src-${Math.floor(newest)}`);
  const keep = { bin: join(shared, 'cli/index.js'), cleanup: () => undefined };
  if (existsSync(keep.bin)) return keep;
  const { build } = await import('tsup');
  const configs = (await import('../../tsup.config.js')).default;
  const cli = (Array.isArray(configs) ? configs : [configs]).find(
    (config) => typeof config === 'object' && JSON.stringify(config.entry ?? {}).includes('cli/index'),
  );
  if (!cli || typeof cli !== 'object') throw new Error('tsup.config.ts has no CLI build');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, 'shop-mgmt-cli-'));
  await build({ ...cli, outDir, sourcemap: false, silent: true });
  for (const old of readdirSync(cache).filter((name) => name.startsWith('shop-mgmt-cli-src-'))) {
    if (join(cache, old) !== shared) rmSync(join(cache, old), { recursive: true, force: true });
  }
  try {
    renameSync(outDir, shared); // whole, or not at all: another file may be reading it
  } catch {
    rmSync(outDir, { recursive: true, force: true }); // another file's build of the same sources won
  }
  return keep;
}

/** A running bin: its output lines so far, and a way to wait for one. */
export class CliProcess {
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;
  #waiters: (() => void)[] = [];

  constructor(readonly child: ChildProcess) {
    const collect = (into: string[]) => {
      let partial = '';
      return (chunk: Buffer) => {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop()!;
        into.push(...lines);
        for (const wake of this.#waiters.splice(0)) wake();
      };
    };
    child.stdout?.on('data', collect(this.stdout));
    child.stderr?.on('data', collect(this.stderr));
    this.exited = new Promise((done) =>
      child.on('exit', (code) => {
        for (const wake of this.#waiters.splice(0)) wake();
        done(code);
      }),
    );
  }

  /** The stdout lines parsed as JSON (with --json). */
  records(): Record<string, unknown>[] {
    return this.stdout.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
  }

  /** Waits until `test` holds, failing with the output so far after `ms`. */
  async until<T>(test: () => T | undefined | false, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = test();
      if (value) return value;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(
          `gave up waiting (exit code ${this.child.exitCode}, signal ${this.child.signalCode}); stdout:\n${this.stdout.join('\n')}\nstderr:\n${this.stderr.join('\n')}`,
        );
      }
      await new Promise<void>((wake) => {
        this.#waiters.push(wake);
        setTimeout(wake, 100);
      });
    }
  }

  /** Sends a signal and resolves with the exit code. */
  async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** Spawns and tracks bin processes; `killAll` in afterEach ends any a test left running. */
export class CliRunner {
  readonly #running = new Set<CliProcess>();

  constructor(
    private readonly bin: () => string,
    private readonly env: Record<string, string> = {},
  ) {}

  /** The path of the bin the runner starts. */
  binPath(): string {
    return this.bin();
  }

  start(args: string[], env: Record<string, string> = {}): CliProcess {
    const child = spawn(process.execPath, [this.bin(), ...args], {
      env: { ...process.env, NO_COLOR: '', SHOP_API_KEY: '', SHOP_API_BASE_URL: '', ...this.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const running = new CliProcess(child);
    this.#running.add(running);
    void running.exited.then(() => this.#running.delete(running));
    return running;
  }

  /** Runs to the end (bounded by `ms`), with the exit code and output. */
  async run(
    args: string[],
    env: Record<string, string> = {},
    ms = 15_000,
  ): Promise<CliProcess & { code: number | null }> {
    const running = this.start(args, env);
    const timer = setTimeout(() => running.child.kill('SIGKILL'), ms);
    const code = await running.exited;
    clearTimeout(timer);
    return Object.assign(running, { code });
  }

  async killAll(): Promise<void> {
    await Promise.all([...this.#running].map((running) => running.stop('SIGKILL')));
  }
}

/** A delivery a receiver got. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly event: { id: string; type: string };
  /** True when the signature verified with the receiver's secret. */
  readonly verified: boolean;
}

/** A webhook receiver on 127.0.0.1 that verifies with `secret` (once known) and answers from `answer`. */
export class Receiver {
  readonly received: Received[] = [];
  secret: string | null = null;
  /** The status for the next delivery; default 200. */
  answer: (count: number) => number = () => 200;
  #server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let verified = false;
        if (this.secret) {
          verified = await verifyWebhook({
            body,
            headers: request.headers as Record<string, string>,
            secret: this.secret,
          })
            .then(() => true)
            .catch(() => false);
        }
        this.received.push({ headers: request.headers, body, event: JSON.parse(body), verified });
        response.writeHead(this.answer(this.received.length));
        response.end();
      });
    });
    await new Promise<void>((done) => this.#server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/webhooks/shop`;
    return this;
  }

  async until(test: (received: Received[]) => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test(this.received)) {
      if (Date.now() > deadline)
        throw new Error(`receiver got only ${this.received.map((r) => r.event.type).join(', ')}`);
      await new Promise((wake) => setTimeout(wake, 50));
    }
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((done) => (this.#server ? this.#server.close(() => done()) : done()));
  }
}

/** Starts `shop-mgmt sandbox --json --port 0` with `args`; resolves with its ready record. */
export async function startSandbox(
  cli: CliRunner,
  args: string[] = [],
): Promise<{ process: CliProcess; url: string; key: string; webhookSecret: string | null }> {
  const running = cli.start(['sandbox', '--json', '--port', '0', ...args]);
  const ready = await running.until(
    () => running.records().find((record) => record.event === 'ready'),
    20_000,
  );
  return {
    process: running,
    url: ready.url as string,
    key: ready.key as string,
    webhookSecret: (ready.webhookSecret as string | null) ?? null,
  };
}

/**
 * The hooks a CLI test file needs: the built bin before all, the processes it started and the receivers it
 * opened ended after each test, and a scratch folder removed after all.
 */
export function cliSuite(name: string) {
  let bin: Awaited<ReturnType<typeof builtBin>> | undefined;
  let scratch = '';
  const cli = new CliRunner(() => (bin as { bin: string }).bin);
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    bin = await builtBin();
    scratch = mkdtempSync(join(tmpdir(), `shop-mgmt-cli-${name}-`));
  }, 120_000);
  afterEach(async () => {
    await cli.killAll();
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });
  afterAll(() => {
    bin?.cleanup();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  return {
    cli,
    /** The scratch folder (made before the first test). */
    scratch: () => scratch,
    /** A receiver on 127.0.0.1, closed after the test. */
    async receiver(): Promise<Receiver> {
      const started = await new Receiver().start();
      receivers.push(started);
      return started;
    },
  };
}
