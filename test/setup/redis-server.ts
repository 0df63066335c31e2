// A throwaway redis-server on 127.0.0.1, beside postgres-server.ts: the test run's (global-setup.ts), its
// own for each test that stops Redis mid-run (so the server it stops is nobody else's), and bench/'s scripts.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** A redis-server this process started. */
export interface OwnRedis {
  readonly url: string;
  readonly port: number;
  /** Kills the server at once (SIGKILL: as a crash, no goodbye to clients). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, commands queue unanswered, as in a stall. */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT); it then answers everything queued meanwhile. */
  thaw(): void;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function answers(port: number): boolean {
  const ping = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], { encoding: 'utf8' });
  return ping.stdout?.trim() === 'PONG';
}

/** True when redis-server is installed. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** Options of {@link startOwnRedis}. */
export interface OwnRedisOptions {
  /**
   * Keep an append-only file in this directory, written to disk on every write (`appendonly yes`,
   * `appendfsync always`): what the server held survives `stop()` (a SIGKILL) and `start()`. The caller
   * removes the directory. Without it the server keeps nothing.
   */
  appendOnlyDir?: string;
}

/** Starts a redis-server on a free loopback port, without persistence unless `appendOnlyDir` is given. */
export async function startOwnRedis(options: OwnRedisOptions = {}): Promise<OwnRedis> {
  const port = await freePort();
  const persistence = options.appendOnlyDir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', options.appendOnlyDir]
    : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence],
      {
        stdio: 'ignore',
      },
    );
    const deadline = Date.now() + 10_000;
    while (!answers(port)) {
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on 127.0.0.1:${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  const signal = (name: NodeJS.Signals) => {
    if (child && child.exitCode === null) child.kill(name);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
  };
}
