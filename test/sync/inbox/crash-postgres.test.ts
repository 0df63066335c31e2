// A receiver with the Postgres inbox, SIGKILLed at every named point over 520 deliveries (see crash-run.ts),
// its catch-up's checkpoint kept in a file and off for 8 of the 20 rounds: every event of those rounds in by
// webhook, most of all, every event's effect applied, none twice (the effect and the done mark commit in one
// transaction, and the row lock keeps other workers off the event while it runs).
import { describe, expect, inject, it } from 'vitest';
import { crashRun, expectHonestRun, report, useCrashChild } from './crash-run.js';

useCrashChild();

const postgresUrl = inject('postgresUrl');

describe.skipIf(postgresUrl === null)(
  'a receiver with the Postgres inbox, SIGKILLed at random points',
  () => {
    it('loses no event and applies none twice', async () => {
      const suffix = `${process.pid}_${Date.now()}`;
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: postgresUrl! });
      await client.connect();
      await client.query(`CREATE TABLE crash_effects_${suffix} (event_id TEXT NOT NULL)`);
      await client.end();
      const run = await crashRun('postgres-inbox', {
        PG_URL: postgresUrl!,
        TABLE: `crash_inbox_${suffix}`,
        EFFECTS_TABLE: `crash_effects_${suffix}`,
      });
      const figures = report('postgres-inbox', run);
      expectHonestRun('postgres-inbox', run, figures);
      expect(figures.twice).toBe(0);
    }, 120_000);
  },
);
