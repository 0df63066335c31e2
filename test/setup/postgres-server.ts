// A throwaway PostgreSQL server on 127.0.0.1 for the inbox and sync tests (and bench/): initdb into a fresh
// folder, postgres on a free loopback port, no fsync (a test database need not survive a power cut). As root
// it runs as the `postgres` user, since PostgreSQL refuses to run as root.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PostgreSQL server this process started. */
export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser, trust authentication on loopback. */
  readonly url: string;
  readonly port: number;
  /** Kills the server at once (SIGKILL on the postmaster: a crash, not a shutdown). */
  kill(): Promise<void>;
  /** Stops it cleanly and removes its data folder. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder (after `kill`). */
  start(): Promise<void>;
  /** Creates a new empty database and returns its URL. */
  createDatabase(name: string): string;
  /** Shuts it down cleanly (a fast shutdown: sessions are ended) and keeps its data folder; `start` again. */
  halt(): Promise<void>;
  /** A fast shutdown and a start on the same port and data folder, as `pg_ctl restart` does. */
  restart(): Promise<void>;
  /** SIGSTOPs the postmaster and every backend: the server stalls, its sockets stay open. */
  pause(): void;
  /** SIGCONTs what `pause` stopped. */
  resume(): void;
}

const candidateBins = (): string[] => {
  const dirs: string[] = [];
  const root = '/usr/lib/postgresql';
  if (existsSync(root))
    for (const version of readdirSync(root).sort((a, b) => Number(b) - Number(a)))
      dirs.push(join(root, version, 'bin'));
  return dirs;
};

/** The folder holding initdb and postgres, or null when PostgreSQL is not installed. */
export function postgresBinDir(): string | null {
  for (const dir of candidateBins()) if (existsSync(join(dir, 'initdb'))) return dir;
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout?.trim();
  return found ? found.replace(/\/initdb$/, '') : null;
}

/** True when a PostgreSQL server can be started here. */
export function hasPostgresServer(): boolean {
  return postgresBinDir() !== null;
}

function freePort(): Promise<number> {
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

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL program, as the `postgres` user when this process is root. */
function command(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

function run(bin: string, args: string[]): void {
  const [cmd, argv] = command(bin, args);
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${bin} ${args.join(' ')} failed: ${result.stderr || result.stdout || result.error}`);
}

function owned(path: string): void {
  if (!asRoot) return;
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  chownSync(path, Number(id.stdout.trim()), Number(gid.stdout.trim()));
}

/** Starts PostgreSQL in a fresh data folder on a free loopback port. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const base = mkdtempSync(join(tmpdir(), 'shop-mgmt-pg-'));
  chmodSync(base, 0o755);
  owned(base);
  const data = join(base, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const ready = (): boolean => {
    const [cmd, argv] = command(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
    return spawnSync(cmd, argv).status === 0;
  };
  const start = async () => {
    const [cmd, argv] = command(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      base,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ]);
    child = spawn(cmd, argv, { stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while (!ready()) {
      if (child.exitCode !== null)
        throw new Error(`postgres exited with ${child.exitCode} before it answered`);
      if (Date.now() > deadline) throw new Error(`postgres did not answer on 127.0.0.1:${port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const signal = async (sig: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // runuser forwards the signal to postgres; kill the postmaster by its pid file too, in case it does not.
    running.kill(sig);
    const pid = spawnSync('head', ['-1', join(data, 'postmaster.pid')], { encoding: 'utf8' }).stdout?.trim();
    if (pid && /^\d+$/.test(pid))
      try {
        process.kill(Number(pid), sig);
      } catch {
        // already gone
      }
    await exited;
  };
  /** The postmaster and its children (backends, checkpointer, ...), from /proc. */
  const serverPids = (): number[] => {
    const pid = spawnSync('head', ['-1', join(data, 'postmaster.pid')], { encoding: 'utf8' }).stdout?.trim();
    if (!pid || !/^\d+$/.test(pid)) return [];
    const pids = [Number(pid)];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // The fields after the command name (which may hold spaces): state, then the parent's pid.
        const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (parent === pids[0]) pids.push(Number(entry));
      } catch {
        // gone meanwhile
      }
    }
    return pids;
  };
  const signalAll = (sig: NodeJS.Signals) => {
    for (const pid of serverPids())
      try {
        process.kill(pid, sig);
      } catch {
        // gone meanwhile
      }
  };
  await start();
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  return {
    url: url('postgres'),
    port,
    kill: () => signal('SIGKILL'),
    start,
    async stop() {
      await signal('SIGINT');
      rmSync(base, { recursive: true, force: true });
    },
    halt: () => signal('SIGINT'),
    async restart() {
      await signal('SIGINT');
      await start();
    },
    pause: () => signalAll('SIGSTOP'),
    resume: () => {
      signalAll('SIGCONT');
      // runuser stops itself when the program it waits on is stopped: continue it too.
      if (child?.pid !== undefined && child.exitCode === null) child.kill('SIGCONT');
    },
    createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      run(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
      return url(name);
    },
  };
}
