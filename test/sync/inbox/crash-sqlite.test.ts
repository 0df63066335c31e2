// A receiver with the SQLite inbox, SIGKILLed at every named point over 520 deliveries (see crash-run.ts),
// its catch-up's checkpoint kept in a file and off for 8 of the 20 rounds: every event of those rounds in by
// webhook, most of all, every event's effect applied, none twice (the effect and the done mark commit in one
// transaction).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashRun, dir, expectHonestRun, report, useCrashChild } from './crash-run.js';

useCrashChild();

describe('a receiver with the SQLite inbox, SIGKILLed at random points', () => {
  it('loses no event and applies none twice', async () => {
    const run = await crashRun('sqlite-inbox', { DB: join(dir, 'inbox.db') });
    const figures = report('sqlite-inbox', run);
    expectHonestRun('sqlite-inbox', run, figures);
    expect(figures.twice).toBe(0);
  }, 120_000);
});
