// A receiver with the RedisDedupeStore's leases, SIGKILLed at random points over 520 deliveries (see
// crash-run.ts): every event's effect applied. Effects applied twice are counted, not refused: a process killed
// after its handlers' effects and before their done marks has them run again (at least once, by design).
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { crashRun, DELIVERIES, dir, report, useCrashChild } from './crash-run.js';

useCrashChild();

describe.skipIf(inject('redisUrl') === null)(
  'a receiver with the RedisDedupeStore, SIGKILLed at random points',
  () => {
    it('loses no event', async () => {
      const run = await crashRun('redis-dedupe', {
        REDIS_URL: inject('redisUrl')!,
        PREFIX: `crash:${process.pid}:${Date.now()}:`,
        EFFECTS: join(dir, 'effects.log'),
        LEASE: '1',
      });
      const { lost, kills } = report('redis-dedupe', run);
      expect(run.created.length).toBeGreaterThanOrEqual(DELIVERIES);
      expect(kills).toBeGreaterThanOrEqual(10);
      expect(lost).toBe(0);
    }, 120_000);
  },
);
