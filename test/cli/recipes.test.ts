// Every trigger makes the event type it is listed under, and the catalog is covered: all 40 types are made
// on demand. In-process, through `sandbox.trigger`, the one entry the bin's control surface calls too.
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/generated/event-types.js';
import { SandboxUsageError } from '../../src/testing/errors.js';
import { RECIPES, triggerList } from '../../src/testing/triggers.js';
import { newSandbox } from '../testing/helpers.js';

describe('sandbox.trigger', () => {
  it.each(Object.keys(RECIPES))('%s makes that event', async (type) => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
    const before = sandbox.world.events.all().length;
    const result = await sandbox.trigger(type);
    expect(result.did).toMatch(/\((API|register|owner|billing|register, API)\)$/);
    const logged = sandbox.world.events
      .all()
      .slice(before)
      .map((event) => ({ id: event.envelope.id, type: event.envelope.type }));
    // What it reports is what the log holds, plus the ping of Send test (not part of the feed).
    expect(result.events.filter((event) => event.type !== 'ping')).toEqual(logged);
    expect(result.events.map((event) => event.type)).toContain(type);
    // Twice in a row works too (a sandbox process triggers the same type again and again).
    await sandbox.trigger(type);
  });

  it('covers the catalog: every type is made on demand', () => {
    expect(Object.keys(RECIPES).sort()).toEqual([...EVENT_TYPES].sort());
    expect(triggerList().filter((entry) => entry.supported)).toHaveLength(40);
  });

  it('refuses a type outside the catalog, making nothing', async () => {
    const sandbox = newSandbox();
    const before = sandbox.world.events.all().length;
    await expect(sandbox.trigger('range.lane.repainted')).rejects.toThrow(SandboxUsageError);
    expect(sandbox.world.events.all()).toHaveLength(before);
  });

  it('goes through the API as a partner would: a key without the permission is refused', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['range:read'] });
    await expect(sandbox.trigger('range.reservation.booked', { apiKey: key })).rejects.toMatchObject({
      status: 403,
    });
  });
});
