// Every trigger recipe makes the event type it is listed under, and the catalog is covered: all 40 types
// are made on demand. In-process, against the sandbox the bin serves.
import { describe, expect, it } from 'vitest';
import { RECIPES, SandboxShop, triggerList } from '../../src/cli/triggers.js';
import { EVENT_TYPES } from '../../src/generated/event-types.js';
import { newSandbox } from '../testing/helpers.js';

describe('trigger recipes', () => {
  it.each(Object.keys(RECIPES))('%s makes that event', async (type) => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
    const before = sandbox.core.events.all().length;
    const shop = new SandboxShop(sandbox, sandbox.createKey());
    const did = await RECIPES[type]!(shop);
    expect(did).toMatch(/\((API|register|owner|billing|register, API)\)$/);
    const made = sandbox.core.events
      .all()
      .slice(before)
      .map((event) => event.envelope.type)
      .concat(shop.unrecorded.map((event) => event.type));
    expect(made).toContain(type);
    // Twice in a row works too (a sandbox process triggers the same type again and again).
    await RECIPES[type]!(shop);
  });

  it('covers the catalog: every type is made on demand', () => {
    expect(Object.keys(RECIPES).sort()).toEqual([...EVENT_TYPES].sort());
    expect(triggerList().filter((entry) => entry.supported)).toHaveLength(40);
  });
});
