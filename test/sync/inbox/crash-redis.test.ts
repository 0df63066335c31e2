// A receiver with the RedisDedupeStore's leases, SIGKILLed at every named point over 520 deliveries (see
// crash-run.ts), its catch-up's checkpoint kept in a file and off for 8 of the 20 rounds: every event of those
// rounds in by webhook, most of all, every event's effect applied. Effects applied twice are counted, not refused: a process killed
// after its handlers' effects and before their done marks has them run again (at least once, by design).
import { join } from 'node:path';
import { describe, inject, it } from 'vitest';
import { crashRun, dir, expectHonestRun, report, useCrashChild } from './crash-run.js';

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
      expectHonestRun('redis-dedupe', run, report('redis-dedupe', run));
    }, 120_000);
  },
);
