import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of a redis-server started for this run, or null when none could be started. */
    redisUrl: string | null;
  }
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

async function waitForRedis(port: number, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const ping = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], {
      encoding: 'utf8',
    });
    if (ping.stdout?.trim() === 'PONG') return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

let redis: ChildProcess | undefined;

/** Starts a throwaway redis-server on loopback for the Redis dedupe tests; CI must have one. */
export async function setup(project: TestProject): Promise<void> {
  const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
  if (!hasRedis) {
    if (process.env.CI)
      throw new Error(
        'redis-server is not installed: .ci/run must install it (apt-get install redis-server)',
      );
    console.warn(
      '[shop-sdk tests] redis-server not found: the Redis dedupe tests will be skipped. Install it to run them.',
    );
    project.provide('redisUrl', null);
    return;
  }
  const port = await freePort();
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const ready = await waitForRedis(port, Date.now() + 10_000);
  if (!ready) throw new Error(`redis-server did not answer on 127.0.0.1:${port}`);
  project.provide('redisUrl', `redis://127.0.0.1:${port}`);
}

export async function teardown(): Promise<void> {
  redis?.kill('SIGTERM');
}
