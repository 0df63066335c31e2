// Sandbox snapshots (sandboxSnapshot / restoreSandbox, what `shop-mgmt sandbox --state` saves) and bulk
// records (createSandbox({ records })).
import { describe, expect, it } from 'vitest';
import { restoreSandbox, SandboxUsageError, sandboxSnapshot } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';

describe('sandbox snapshots', () => {
  it('restores records, keys, endpoints, the feed and the clock, and ids carry on', async () => {
    const sandbox = newSandbox();
    const endpoint = sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
    const key = sandbox.createKey();
    const made = await call(sandbox, 'POST', '/v1/coupons', {
      key,
      body: { code: 'SNAP', name: 'Snap', percent_off: 5 },
    });
    expect(made.status).toBe(201);
    sandbox.clock.advance('3h');
    // Through JSON text, as the state file holds it.
    const restored = restoreSandbox(JSON.parse(JSON.stringify(sandboxSnapshot(sandbox))));

    expect(restored.clock.iso()).toBe(sandbox.clock.iso());
    expect(restored.webhooks.endpoints()).toEqual(sandbox.webhooks.endpoints());
    const feed = await call(restored, 'GET', '/v1/events', { key });
    expect(feed.status).toBe(200);
    expect(feed.json.data.map((event: { type: string }) => event.type)).toEqual(['coupon.created']);
    const next = await call(restored, 'POST', '/v1/coupons', {
      key,
      body: { code: 'SNAP2', name: 'Snap 2', percent_off: 5 },
    });
    expect(next.json.data.id).toBe(made.json.data.id + 1);
    const after = await call(restored, 'GET', '/v1/events', { key });
    const ids = after.json.data.map((event: { id: string }) => event.id);
    expect(new Set(ids).size).toBe(2);
    // Deliveries are signed with the endpoint's saved secret: a restored receiver keeps working.
    expect(restored.world.endpoints.find(endpoint.id)?.secrets).toEqual([endpoint.secret]);
  });

  it('restores a running clock saved moments after its start, however long the rebuild takes', () => {
    // A sandbox stopped right after it started saves a clock only a few ms past its start; rebuilding the
    // base shop before the jump can take longer than that on a busy machine. The saved time is where the
    // restored clock stands, not a move backwards.
    const started = new Date('2026-10-01T15:20:00.000Z');
    const saved = JSON.parse(JSON.stringify(sandboxSnapshot(newSandbox({ clock: 'real', now: started }))));
    saved.clockMs = started.getTime() + 1;
    const restored = restoreSandbox(saved, { clock: 'real' });
    expect(restored.clock.nowMs()).toBeGreaterThanOrEqual(started.getTime() + 1);
    expect(restored.clock.nowMs()).toBeLessThan(started.getTime() + 60_000);
    const frozen = restoreSandbox(saved, { clock: 'frozen' });
    expect(frozen.clock.nowMs()).toBe(started.getTime() + 1);
    // A saved time before the start is no time the clock could have shown: a damaged file.
    expect(() => restoreSandbox({ ...saved, clockMs: started.getTime() - 1 })).toThrow(
      'The sandbox state is damaged: its clock is not a time after its start',
    );
  });

  it('refuses what is not a snapshot of this version with SandboxUsageError', () => {
    const good = JSON.parse(JSON.stringify(sandboxSnapshot(newSandbox())));
    expect(() => restoreSandbox({ hello: 1 })).toThrow(SandboxUsageError);
    expect(() => restoreSandbox(null)).toThrow(/Not a sandbox state file/);
    expect(() => restoreSandbox({ ...good, version: 2 })).toThrow(
      /version 2 is not one this shop-mgmt reads/,
    );
    expect(() => restoreSandbox({ ...good, parts: { ...good.parts, keys: undefined } })).toThrow(
      /damaged.*"keys" is missing/,
    );
    expect(() => restoreSandbox({ ...good, parts: { ...good.parts, state: { $t: 'bogus' } } })).toThrow(
      /damaged.*unknown node type bogus/,
    );
  });
});

describe('bulk records', () => {
  it("adds completed past visits and customers that leave today's availability alone", async () => {
    const plain = newSandbox();
    const bulk = newSandbox({ records: { reservations: 1200, customers: 40 } });
    expect(bulk.world.state.range.reservations.size).toBe(plain.world.state.range.reservations.size + 1200);
    expect(bulk.world.state.shop.customers.size).toBe(plain.world.state.shop.customers.size + 40);
    const added = bulk.world.state.range.reservations.all().slice(-1200);
    expect(added.every((reservation) => reservation.status === 'completed')).toBe(true);
    expect(added.every((reservation) => Date.parse(reservation.ends_at) <= bulk.clock.nowMs())).toBe(true);
    const window = 'starts_at=2026-10-02T17:00:00Z&ends_at=2026-10-02T18:00:00Z';
    const [before, after] = await Promise.all(
      [plain, bulk].map((sandbox) =>
        call(sandbox, 'GET', `/v1/range/availability?${window}`, { key: sandbox.createKey() }),
      ),
    );
    expect(after!.json.data).toEqual(before!.json.data);
  });

  it('takes reservations and customers only, as whole numbers', () => {
    expect(() => newSandbox({ records: { orders: 5 } as never })).toThrow(
      /bulk-seeds reservations and customers only/,
    );
    expect(() => newSandbox({ records: { reservations: -1 } })).toThrow(SandboxUsageError);
    expect(() => newSandbox({ records: { customers: 1.5 } })).toThrow(/whole number/);
  });
});
