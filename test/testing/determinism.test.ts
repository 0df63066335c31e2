import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';

/** Two sign-ups through the API; the card links are drawn from the seeded generator. */
async function twoSignUps(sandbox: Sandbox): Promise<string[]> {
  const key = sandbox.createKey();
  const links: string[] = [];
  for (const customerId of [5, 8]) {
    const res = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { customer_id: customerId, plan_id: 1, billing_method: 'link' },
    });
    expect(res.status).toBe(201);
    links.push(res.json.data.card_link_url);
  }
  return links;
}

describe('sandbox determinism', () => {
  it('gives the same generated values for the same seed and calls, with or without a webhook endpoint', async () => {
    const quiet = newSandbox({ seed: 3 });
    const watched = newSandbox({ seed: 3 });
    watched.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/all', types: ['*'] });

    const [quietLinks, watchedLinks] = [await twoSignUps(quiet), await twoSignUps(watched)];

    expect(watched.world.events.all().map((event) => event.envelope.type)).toEqual([
      'membership.created',
      'membership.created',
    ]);
    expect(watchedLinks).toEqual(quietLinks);
  });

  it('gives each fresh sandbox its own event and delivery ids, even with the same seed and calls', async () => {
    const ids = async () => {
      const sandbox = newSandbox({ seed: 3 });
      sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/all', types: ['*'] });
      await twoSignUps(sandbox);
      return [
        ...sandbox.world.events.all().map((event) => event.envelope.id),
        ...sandbox.webhooks.pending().map((delivery) => delivery.deliveryId),
      ];
    };
    const [first, second] = [await ids(), await ids()];
    expect(first).toHaveLength(4);
    for (const id of second) expect(first).not.toContain(id);
  });

  it('repeats event and delivery ids for the same seed and calls with reproducibleIds', async () => {
    const ids = async () => {
      const sandbox = newSandbox({ seed: 3, reproducibleIds: true });
      sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/all', types: ['*'] });
      await twoSignUps(sandbox);
      return [
        sandbox.world.events.all().map((event) => event.envelope.id),
        sandbox.webhooks.pending().map((delivery) => delivery.deliveryId),
      ];
    };
    const [first, second] = [await ids(), await ids()];
    expect(first[0]).toHaveLength(2);
    expect(first[1]).toHaveLength(2);
    expect(second).toEqual(first);
  });
});
