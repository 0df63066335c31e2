/**
 * What the benches share: the built package (what users install) and its freshness, the loopback server in a
 * child process, and min / median / max of repeated figures.
 */
import { fork } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..');

/** Newest modification time of a file under src/. */
function newestSource(dir = join(root, 'src')): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Imports the package as an application does, by its name (`shop-mgmt`, or a subpath such as
 * `shop-mgmt/webhooks`): Node resolves it to dist/node/ through package.json's exports (`npm run build`
 * first). Refuses a dist/ older than src/: a figure of stale code would be a figure of nothing.
 */
export async function importBuilt<T>(specifier = 'shop-mgmt'): Promise<T> {
  const path = join(root, 'dist/node/index.js');
  if (!existsSync(path)) throw new Error('dist/node/index.js is missing: run `npm run build` first');
  if (statSync(path).mtimeMs < newestSource() && process.env.BENCH_STALE_OK !== '1') {
    throw new Error(
      'dist/ is older than src/: run `npm run build` (or BENCH_STALE_OK=1 to measure it anyway)',
    );
  }
  return (await import(specifier)) as T;
}

/** The loopback server (transport-server.ts) in a child process; its base URL and a stop function. */
export async function startServer(env: Record<string, string> = {}) {
  const child = fork(join(root, 'bench/transport-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((done) =>
    child.stdout?.once('data', (chunk) => done(Number(String(chunk).trim()))),
  );
  return { baseUrl: `http://127.0.0.1:${port}`, port, stop: () => child.disconnect() };
}

export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0] ?? Number.NaN, median, max: sorted.at(-1) ?? Number.NaN };
}

/** `median (min-max)` with `digits` decimals and a unit. */
export function show(s: Spread, digits = 2, unit = ''): string {
  return `${s.median.toFixed(digits)}${unit} (${s.min.toFixed(digits)}-${s.max.toFixed(digits)})`;
}

/** The machine's load average when a bench starts, for its heading. */
export async function loadLine(): Promise<string> {
  const { loadavg, cpus } = await import('node:os');
  return `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ')} on ${cpus().length} cores`;
}
