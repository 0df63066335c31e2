import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Inbox } from '../../src/sync/inbox/inbox.js';
import { MemoryInboxStore } from '../../src/sync/inbox/memory.js';
import { EventCatchUp, MemoryCheckpointStore } from '../../src/sync/index.js';
import {
  createWebhookHandler,
  type EventContext,
  MemoryDedupeStore,
  type ShopEvent,
} from '../../src/webhooks/index.js';
import { deliveryHeaders, unixNow } from '../webhooks/helpers.js';
import { eventId, fakeApi, makeEvent } from './fake-api.js';

const { state, client } = fakeApi();

beforeEach(() => {
  state.events = [];
  state.queries = [];
});

const T1 = '2026-09-24T10:00:00Z';
const T2 = '2026-09-24T10:00:05.250Z';
const T3 = '2026-09-24T10:01:00Z';

function recorder() {
  const ids: string[] = [];
  const onEvent = vi.fn(async (event: ShopEvent, _context: EventContext) => {
    ids.push(event.id);
  });
  return { ids, onEvent };
}

describe('EventCatchUp', () => {
  it('hands on every event of the feed oldest first, across pages, and saves a checkpoint', async () => {
    state.events = [1, 2, 3, 4, 5, 6, 7].map((n) => makeEvent(n, n < 4 ? T1 : T2));
    const { ids, onEvent } = recorder();
    const checkpoints = new MemoryCheckpointStore();
    const result = await new EventCatchUp({ client, onEvent, checkpoints, pageSize: 2 }).run();
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7].map(eventId));
    expect(onEvent.mock.calls[0]![1]).toEqual({ source: 'feed', delivery: null });
    expect(result).toEqual({
      processed: 7,
      skipped: 0,
      checkpoint: {
        lastEventId: eventId(7),
        createdAt: T2,
        seen: [1, 2, 3, 4, 5, 6, 7].map(eventId),
        held: [],
      },
    });
    expect(checkpoints.load()).toBe(result.checkpoint);
    expect(state.queries.map((q) => q.query.cursor)).toEqual([undefined, '2', '4', '6']);
  });

  it('resumes from the checkpoint: re-reads the minute before it and drops what it passed', async () => {
    state.events = [makeEvent(1, T1), makeEvent(2, T2), makeEvent(3, T2)];
    const { ids, onEvent } = recorder();
    const catchUp = new EventCatchUp({ client, onEvent });
    await catchUp.run();
    // Recorded after the first run, at the instant of the checkpoint, and later.
    state.events.push(makeEvent(4, T2), makeEvent(5, T3));
    const second = await catchUp.run();
    expect(state.queries.at(-1)!.query.updated_since).toBe('2026-09-24T09:59:05.000Z');
    expect(ids).toEqual([1, 2, 3, 4, 5].map(eventId));
    expect(second).toMatchObject({ processed: 2, skipped: 3 });
    const third = await catchUp.run();
    expect(state.queries.at(-1)!.query.updated_since).toBe('2026-09-24T10:00:00.000Z');
    expect(third).toMatchObject({ processed: 0, skipped: 5 });
    expect(ids).toHaveLength(5);
  });

  it('resumes in a new process from a stored checkpoint', async () => {
    state.events = [1, 2, 3].map((n) => makeEvent(n, T1));
    const checkpoints = new MemoryCheckpointStore({ lastEventId: eventId(2), createdAt: T1 });
    const { ids, onEvent } = recorder();
    await new EventCatchUp({ client, onEvent, checkpoints }).run();
    expect(ids).toEqual([eventId(3)]);
  });

  it("hands on the checkpoint's instant when its event left the feed, and the dedupe store drops repeats", async () => {
    state.events = [makeEvent(1, T1), makeEvent(2, T1), makeEvent(3, T2)];
    const dedupe = new MemoryDedupeStore();
    const { ids, onEvent } = recorder();
    const checkpoints = new MemoryCheckpointStore();
    await new EventCatchUp({ client, onEvent, dedupe, checkpoints: new MemoryCheckpointStore() }).run();
    // A checkpoint naming an event the feed no longer has (older than 30 days, or no longer readable).
    checkpoints.save({ lastEventId: 'evt_gone', createdAt: T1 });
    const result = await new EventCatchUp({ client, onEvent, dedupe, checkpoints }).run();
    expect(result).toMatchObject({ processed: 0, skipped: 3 });
    expect(ids).toEqual([1, 2, 3].map(eventId));
  });

  it('stops at a failing event, keeps the checkpoint before it, and hands it on again next run', async () => {
    state.events = [1, 2, 3, 4].map((n) => makeEvent(n, T1));
    const ids: string[] = [];
    let fail = true;
    const onEvent = async (event: ShopEvent) => {
      if (event.id === eventId(3) && fail) throw new Error('database down');
      ids.push(event.id);
    };
    const dedupe = new MemoryDedupeStore();
    const checkpoints = new MemoryCheckpointStore();
    const catchUp = new EventCatchUp({ client, onEvent, dedupe, checkpoints });
    await expect(catchUp.run()).rejects.toThrow('database down');
    expect(checkpoints.load()).toEqual({
      lastEventId: eventId(2),
      createdAt: T1,
      seen: [1, 2].map(eventId),
      held: [],
    });
    fail = false;
    await expect(catchUp.run()).resolves.toMatchObject({ processed: 2 });
    expect(ids).toEqual([1, 2, 3, 4].map(eventId));
  });

  it('with the webhook handler, hands each event id to one onEvent once, whichever way it came', async () => {
    const secret = 'whsec_sync_secret';
    state.events = [1, 2, 3, 4].map((n) => makeEvent(n, T1));
    const { ids, onEvent } = recorder();
    const dedupe = new MemoryDedupeStore();
    const handler = createWebhookHandler({ secret, dedupe, onEvent });
    // Webhooks bring 2 and 3 (3 twice) before the catch-up runs, and 5 after it.
    for (const n of [2, 3, 3]) {
      const body = JSON.stringify(state.events[n - 1]);
      const result = await handler.handle({ body, headers: deliveryHeaders(body, secret, unixNow()) });
      expect(result.status).toBe(200);
    }
    const catchUp = new EventCatchUp({ client, onEvent, dedupe });
    expect(await catchUp.run()).toMatchObject({ processed: 2, skipped: 2 });
    state.events.push(makeEvent(5, T3));
    const body = JSON.stringify(state.events[4]);
    await handler.handle({ body, headers: deliveryHeaders(body, secret, unixNow()) });
    expect(await catchUp.run()).toMatchObject({ processed: 0 });
    expect([...ids].sort()).toEqual([1, 2, 3, 4, 5].map(eventId));
  });

  it("claims under the webhook handler's dedupeKey, so a multi-tenant receiver hands each shop's event on once", async () => {
    const secret = 'whsec_sync_tenant';
    state.events = [1, 2, 3].map((n) => makeEvent(n, T1));
    const { ids, onEvent } = recorder();
    const dedupe = new MemoryDedupeStore();
    const shopKey = (event: ShopEvent) => `shop_7:${event.id}`;
    const handler = createWebhookHandler({ secret, dedupe, onEvent, dedupeKey: shopKey });
    const body = JSON.stringify(state.events[1]);
    expect((await handler.handle({ body, headers: deliveryHeaders(body, secret, unixNow()) })).status).toBe(
      200,
    );
    const result = await new EventCatchUp({ client, onEvent, dedupe, dedupeKey: shopKey }).run();
    expect(result).toMatchObject({ processed: 2, skipped: 1 });
    expect([...ids].sort()).toEqual([1, 2, 3].map(eventId));
    // Another shop's catch-up over the same store claims its own keys: the same ids are new to it.
    const other = await new EventCatchUp({
      client,
      onEvent,
      dedupe,
      dedupeKey: (e) => `shop_8:${e.id}`,
    }).run();
    expect(other).toMatchObject({ processed: 3, skipped: 0 });
  });

  it('refuses a dedupeKey that gives no string with a ShopError, and hands nothing on', async () => {
    state.events = [makeEvent(1, T1)];
    const { ids, onEvent } = recorder();
    const dedupeKey = (() => '') as (event: ShopEvent) => string;
    const catchUp = new EventCatchUp({ client, onEvent, dedupe: new MemoryDedupeStore(), dedupeKey });
    await expect(catchUp.run()).rejects.toThrow(/dedupeKey gave string for evt_/);
    expect(ids).toEqual([]);
  });

  it('passes since and the type filter to the feed', async () => {
    state.events = [makeEvent(1, T1, 'inventory.changed'), makeEvent(2, T2, 'sale.completed')];
    const { ids, onEvent } = recorder();
    await new EventCatchUp({ client, onEvent, since: new Date(T1), type: 'inventory.changed' }).run();
    expect(state.queries[0]!.query).toMatchObject({
      updated_since: '2026-09-24T10:00:00.000Z',
      type: 'inventory.changed',
    });
    expect(ids).toEqual([eventId(1)]);
  });

  it('runs never overlap: a second call joins the run in progress', async () => {
    state.events = [makeEvent(1, T1)];
    const { onEvent } = recorder();
    const catchUp = new EventCatchUp({ client, onEvent });
    const [a, b] = await Promise.all([catchUp.run(), catchUp.run()]);
    expect(a).toBe(b);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('polls on an interval until stopped, reporting failed runs and going on', async () => {
    state.events = [makeEvent(1, T1)];
    const { ids, onEvent } = recorder();
    const onError = vi.fn();
    let failNext = true;
    const catchUp = new EventCatchUp({
      client,
      onEvent: async (event, context) => {
        if (event.id === eventId(2) && failNext) {
          failNext = false;
          throw new Error('once');
        }
        await onEvent(event, context);
      },
    });
    const poller = catchUp.start({ intervalMs: 10, onError });
    await vi.waitFor(() => expect(ids).toEqual([eventId(1)]));
    state.events.push(makeEvent(2, T2));
    await vi.waitFor(() => expect(ids).toEqual([eventId(1), eventId(2)]));
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'once' }));
    await poller.stop();
    const requests = state.queries.length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(state.queries.length).toBe(requests);
  });

  for (const kind of ['throws', 'rejects'] as const) {
    it(`keeps polling when onError itself ${kind}, with no unhandled rejection, and stop() still resolves`, async () => {
      state.events = [makeEvent(1, T1)];
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        let runs = 0;
        const catchUp = new EventCatchUp({
          client,
          onEvent: async () => {
            runs++;
            throw new Error('handler down');
          },
        });
        const onError = vi.fn(() => {
          if (kind === 'rejects') return Promise.reject(new Error('the alerting is down too'));
          throw new Error('the alerting is down too');
        });
        const poller = catchUp.start({ intervalMs: 5, onError });
        await vi.waitFor(() => expect(onError.mock.calls.length).toBeGreaterThanOrEqual(3));
        await expect(poller.stop()).resolves.toBeUndefined();
        // Let any rejection nobody awaited surface before looking.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(unhandled).toEqual([]);
        expect(runs).toBeGreaterThanOrEqual(3);
        expect(reported).toHaveBeenCalledWith(
          'shop-mgmt: the onError of a poll threw',
          expect.objectContaining({ message: 'the alerting is down too' }),
        );
      } finally {
        process.off('unhandledRejection', onUnhandled);
        reported.mockRestore();
      }
    });
  }

  it('refuses a stored checkpoint it cannot start from with a clear error', async () => {
    const { onEvent } = recorder();
    for (const stored of [
      { lastEventId: eventId(1), createdAt: 'yesterday' },
      { lastEventId: eventId(1), createdAt: T1, seen: 'evt_000001' },
    ]) {
      const checkpoints = new MemoryCheckpointStore(stored as never);
      await expect(new EventCatchUp({ client, onEvent, checkpoints }).run()).rejects.toThrow(
        /stored checkpoint is not one EventCatchUp saved/,
      );
    }
    expect(state.queries).toEqual([]);
  });

  it('refuses a client without events.list and a since that is not a timestamp', async () => {
    const { onEvent } = recorder();
    expect(() => new EventCatchUp({ client: {} as never, onEvent })).toThrow(/events.list/);
    await expect(new EventCatchUp({ client, onEvent, since: 'yesterday' }).run()).rejects.toThrow(/ISO-8601/);
  });

  it('releases only its own claim when onEvent fails after that claim expired', async () => {
    state.events = [makeEvent(1, T1)];
    let nowMs = Date.parse(T1);
    const dedupe = new MemoryDedupeStore({ now: () => nowMs });
    const onEvent = async () => {
      // The handler outlives the claim, and a webhook delivery claims the same id meanwhile.
      nowMs += 2_000;
      expect(await dedupe.claim(eventId(1), 60)).toBeTruthy();
      throw new Error('downstream failed');
    };
    await expect(new EventCatchUp({ client, onEvent, dedupe, leaseSeconds: 1 }).run()).rejects.toThrow(
      'downstream failed',
    );
    // The webhook delivery's claim stands: a third claimant is refused.
    expect(await dedupe.claim(eventId(1), 60)).toBe(false);
  });

  it('writes the feed into an inbox: events a webhook already wrote are duplicates, and the checkpoint moves on', async () => {
    state.events = [1, 2, 3].map((n) => makeEvent(n, T1));
    const inbox = new Inbox(new MemoryInboxStore());
    // Event 2 came by webhook first.
    expect(await inbox.add(state.events[1] as never, 'webhook')).toBe('added');
    const checkpoints = new MemoryCheckpointStore();
    const catchUp = new EventCatchUp({ client, inbox, checkpoints });
    expect(await catchUp.run()).toMatchObject({ processed: 2, skipped: 1 });
    expect((await inbox.list('pending')).map((entry) => [entry.eventId, entry.source])).toEqual([
      [eventId(2), 'webhook'],
      [eventId(1), 'feed'],
      [eventId(3), 'feed'],
    ]);
    expect(checkpoints.load()).toMatchObject({ lastEventId: eventId(3) });
    expect(() => new EventCatchUp({ client, inbox, onEvent: async () => undefined })).toThrow(/drop onEvent/);
    expect(() => new EventCatchUp({ client, inbox: {} as never })).toThrow(/one with add/);
  });
});
