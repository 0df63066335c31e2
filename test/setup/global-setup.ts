import type { TestProject } from 'vitest/node';
import { hasPostgresServer, type OwnPostgres, startOwnPostgres } from './postgres-server.js';
import { hasRedisServer, type OwnRedis, startOwnRedis } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of a redis-server started for this run, or null when none could be started. */
    redisUrl: string | null;
    /** `postgres://postgres@127.0.0.1:<port>/postgres` of a PostgreSQL server started for this run, or null. */
    postgresUrl: string | null;
  }
}

let redis: OwnRedis | undefined;
let postgres: OwnPostgres | undefined;

/** Starts a throwaway redis-server and PostgreSQL server on loopback for the tests that need them; CI must have both. */
export async function setup(project: TestProject): Promise<void> {
  await setupPostgres(project);
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

async function setupPostgres(project: TestProject): Promise<void> {
  if (!hasPostgresServer()) {
    if (process.env.CI)
      throw new Error('PostgreSQL is not installed: .ci/run must install it (apt-get install postgresql)');
    console.warn(
      '[shop-mgmt tests] PostgreSQL not found: the Postgres tests will be skipped. Install it to run them.',
    );
    project.provide('postgresUrl', null);
    return;
  }
  postgres = await startOwnPostgres();
  project.provide('postgresUrl', postgres.url);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
  await postgres?.stop();
}
