// An event whose claim another handler (a webhook delivery still being processed) holds when the catch-up reads
// it: the catch-up must come back to it if that handler fails, and let it go once the claim has settled.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventCatchUp, MemoryCheckpointStore } from '../../src/sync/index.js';
import { createWebhookHandler, MemoryDedupeStore, type ShopEvent } from '../../src/webhooks/index.js';
import { deliveryHeaders, unixNow } from '../webhooks/helpers.js';
import { eventId, fakeApi, makeEvent } from './fake-api.js';

const { state, client } = fakeApi();

beforeEach(() => {
  state.events = [];
  state.queries = [];
});
afterEach(() => {
  vi.useRealTimers();
});

const T1 = '2026-09-24T10:00:00Z';
const T2 = '2026-09-24T11:00:00Z';

function recorder() {
  const ids: string[] = [];
  const onEvent = async (event: ShopEvent) => {
    ids.push(event.id);
  };
  return { ids, onEvent };
}

describe('EventCatchUp: an event whose claim a webhook still being handled holds', () => {
  const secret = 'whsec_sync_in_flight';

  /** A webhook delivery of `event` whose onEvent waits until the test lets it succeed or fail. */
  function inFlightWebhook(event: object, dedupe: MemoryDedupeStore) {
    let started!: () => void;
    let finish!: (error?: Error) => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const outcome = new Promise<Error | undefined>((resolve) => {
      finish = resolve;
    });
    const handler = createWebhookHandler({
      secret,
      dedupe,
      onEvent: async () => {
        started();
        const error = await outcome;
        if (error) throw error;
      },
    });
    const body = JSON.stringify(event);
    const delivery = handler.handle({ body, headers: deliveryHeaders(body, secret, unixNow()) });
    return { running, delivery, finish };
  }

  it('hands the event on at a later run when that webhook fails after the catch-up passed it', async () => {
    state.events = [1, 2, 3].map((n) => makeEvent(n, T1));
    const dedupe = new MemoryDedupeStore();
    const webhook = inFlightWebhook(state.events[1]!, dedupe);
    await webhook.running;
    const { ids, onEvent } = recorder();
    const catchUp = new EventCatchUp({ client, onEvent, dedupe });
    expect(await catchUp.run()).toMatchObject({ processed: 2, skipped: 1 });

    webhook.finish(new Error('database down'));
    expect((await webhook.delivery).status).toBe(500);
    expect(await catchUp.run()).toMatchObject({ processed: 1 });
    expect(ids).toEqual([1, 3, 2].map(eventId));
  });

  it('never lets an event in progress go: once the lease of a handler that died runs out, it processes it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    state.events = [makeEvent(1, T1), makeEvent(2, T1)];
    const dedupe = new MemoryDedupeStore();
    // A webhook handler claimed event 2 and its process died: nothing renews, completes or releases.
    expect(await dedupe.claim(eventId(2), 30)).toBeTruthy();
    const { ids, onEvent } = recorder();
    const checkpoints = new MemoryCheckpointStore();
    const catchUp = new EventCatchUp({ client, onEvent, dedupe, checkpoints, settleSeconds: 1 });
    expect(await catchUp.run()).toMatchObject({ processed: 1, skipped: 1 });
    expect(checkpoints.load()!.held).toHaveLength(1);
    // Past settleSeconds, but the lease still holds: held, not taken as processed.
    vi.setSystemTime(Date.now() + 20_000);
    expect(await catchUp.run()).toMatchObject({ processed: 0 });
    expect(checkpoints.load()!.held).toHaveLength(1);
    // The lease runs out: the catch-up processes the event itself, and marks it done.
    vi.setSystemTime(Date.now() + 10_000);
    expect(await catchUp.run()).toMatchObject({ processed: 1 });
    expect(ids).toEqual([1, 2].map(eventId));
    expect(checkpoints.load()!.held).toEqual([]);
    expect(await dedupe.isDone(eventId(2))).toBe(true);
  });

  it('passes a held event as soon as its handler marks it done', async () => {
    state.events = [makeEvent(1, T1), makeEvent(2, T1)];
    const dedupe = new MemoryDedupeStore();
    const webhook = inFlightWebhook(state.events[1]!, dedupe);
    await webhook.running;
    const { ids, onEvent } = recorder();
    const checkpoints = new MemoryCheckpointStore();
    const catchUp = new EventCatchUp({ client, onEvent, dedupe, checkpoints, settleSeconds: 3600 });
    await catchUp.run();
    expect(checkpoints.load()!.held).toHaveLength(1);
    webhook.finish();
    expect((await webhook.delivery).status).toBe(200);
    expect(await catchUp.run()).toMatchObject({ processed: 0 });
    expect(checkpoints.load()!.held).toEqual([]);
    expect(ids).toEqual([eventId(1)]);
  });

  it('with a store without leases, keeps reading back to a held event until settleSeconds have passed, then lets it go', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    state.events = [makeEvent(1, T1), makeEvent(2, T1)];
    // A store written before leases: claim and release only.
    const memory = new MemoryDedupeStore();
    const dedupe = {
      claim: (id: string, ttl: number) => memory.claim(id, ttl),
      release: (id: string, token?: string) => memory.release(id, token),
    } as unknown as MemoryDedupeStore;
    const webhook = inFlightWebhook(state.events[1]!, dedupe);
    await webhook.running;
    const { ids, onEvent } = recorder();
    const checkpoints = new MemoryCheckpointStore();
    const catchUp = new EventCatchUp({ client, onEvent, dedupe, checkpoints, settleSeconds: 120 });
    await catchUp.run();
    expect(checkpoints.load()!.held).toEqual([
      { id: eventId(2), createdAt: T1, heldSince: new Date().toISOString() },
    ]);
    webhook.finish();
    expect((await webhook.delivery).status).toBe(200);

    // Much later events move the checkpoint on, but the read still starts at the held event.
    state.events.push(makeEvent(3, T2));
    vi.setSystemTime(Date.now() + 119_000);
    expect(await catchUp.run()).toMatchObject({ processed: 1 });
    expect(checkpoints.load()).toMatchObject({ lastEventId: eventId(3), createdAt: T2 });
    expect(await catchUp.run()).toMatchObject({ processed: 0 });
    expect(state.queries.at(-1)!.query.updated_since).toBe(T1);
    expect(checkpoints.load()!.held).toHaveLength(1);

    // Still claimed after settleSeconds: the webhook processed it.
    vi.setSystemTime(Date.now() + 2_000);
    await catchUp.run();
    expect(checkpoints.load()).toMatchObject({ lastEventId: eventId(3), createdAt: T2, held: [] });
    await catchUp.run();
    expect(state.queries.at(-1)!.query.updated_since).toBe('2026-09-24T10:59:00.000Z');
    expect(ids).toEqual([1, 3].map(eventId));
  });

  it('lets a held event go when it has left the feed', async () => {
    state.events = [makeEvent(1, T1), makeEvent(2, T1)];
    const dedupe = new MemoryDedupeStore();
    const webhook = inFlightWebhook(state.events[1]!, dedupe);
    await webhook.running;
    const { onEvent } = recorder();
    const checkpoints = new MemoryCheckpointStore();
    const catchUp = new EventCatchUp({ client, onEvent, dedupe, checkpoints });
    await catchUp.run();
    webhook.finish();
    await webhook.delivery;
    state.events = [makeEvent(3, T2)];
    await catchUp.run();
    expect(checkpoints.load()).toMatchObject({ lastEventId: eventId(3), held: [] });
  });

  it('refuses a settleSeconds that is not a whole number of seconds, 0 or more', () => {
    const { onEvent } = recorder();
    expect(() => new EventCatchUp({ client, onEvent, settleSeconds: Number.NaN })).toThrow(/settleSeconds/);
    expect(() => new EventCatchUp({ client, onEvent, settleSeconds: -5 })).toThrow(/settleSeconds/);
  });
});
