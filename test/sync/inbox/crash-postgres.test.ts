// A receiver with the Postgres inbox, SIGKILLed at random points over 520 deliveries (see crash-run.ts): every
// event's effect applied, none twice (the effect and the done mark commit in one transaction, and the row lock
// keeps other workers off the event while it runs).
import { describe, expect, inject, it } from 'vitest';
import { crashRun, DELIVERIES, report, useCrashChild } from './crash-run.js';

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
      const { lost, twice, kills } = report('postgres-inbox', run);
      expect(run.created.length).toBeGreaterThanOrEqual(DELIVERIES);
      expect(kills).toBeGreaterThanOrEqual(10);
      expect(lost).toBe(0);
      expect(twice).toBe(0);
    }, 120_000);
  },
);
