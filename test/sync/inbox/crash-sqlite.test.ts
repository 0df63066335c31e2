// A receiver with the SQLite inbox, SIGKILLed at random points over 520 deliveries (see crash-run.ts): every
// event's effect applied, none twice (the effect and the done mark commit in one transaction).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashRun, DELIVERIES, dir, report, useCrashChild } from './crash-run.js';

useCrashChild();

describe('a receiver with the SQLite inbox, SIGKILLed at random points', () => {
  it('loses no event and applies none twice', async () => {
    const run = await crashRun('sqlite-inbox', { DB: join(dir, 'inbox.db') });
    const { lost, twice, kills } = report('sqlite-inbox', run);
    expect(run.created.length).toBeGreaterThanOrEqual(DELIVERIES);
    expect(kills).toBeGreaterThanOrEqual(10);
    expect(lost).toBe(0);
    expect(twice).toBe(0);
  }, 120_000);
});
