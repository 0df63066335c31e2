// Every trigger recipe makes the event type it is listed under, and the catalog is covered: each type is
// either made or listed with a reason. In-process, against the sandbox the bin serves.
import { describe, expect, it } from 'vitest';
import { CANNOT_TRIGGER, RECIPES, SandboxShop, triggerCatalog } from '../../src/cli/triggers.js';
import { EVENT_TYPES } from '../../src/generated/event-types.js';
import { newSandbox } from '../testing/helpers.js';

describe('trigger recipes', () => {
  it.each(Object.keys(RECIPES))('%s makes that event', async (type) => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
    const before = sandbox.core.events.all().length;
    const did = await RECIPES[type]!(new SandboxShop(sandbox, sandbox.createKey()));
    expect(did).toMatch(/\((API|register)\)$/);
    expect(
      sandbox.core.events
        .all()
        .slice(before)
        .map((event) => event.envelope.type),
    ).toContain(type);
  });

  it('covers the catalog: each type is made or refused with a reason, never both', () => {
    for (const type of EVENT_TYPES) expect(type in RECIPES !== type in CANNOT_TRIGGER, type).toBe(true);
    expect(triggerCatalog().filter((entry) => entry.supported)).toHaveLength(30);
  });
});
