import type { TestProject } from 'vitest/node';
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../../bench/redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of a redis-server started for this run, or null when none could be started. */
    redisUrl: string | null;
  }
}

let redis: OwnRedis | undefined;

/** Starts a throwaway redis-server on loopback for the Redis dedupe tests; CI must have one. */
export async function setup(project: TestProject): Promise<void> {
  if (!hasRedisServer()) {
    if (process.env.CI)
      throw new Error(
        'redis-server is not installed: .ci/run must install it (apt-get install redis-server)',
      );
    console.warn(
      '[shop-mgmt tests] redis-server not found: the Redis dedupe tests will be skipped. Install it to run them.',
    );
    project.provide('redisUrl', null);
    return;
  }
  redis = await startOwnRedis();
  project.provide('redisUrl', redis.url);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}
