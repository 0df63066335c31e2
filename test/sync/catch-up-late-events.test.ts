// Events the feed shows only after a run has passed their place (their transaction committed after events
// created later): the catch-up must hand them on, and without a dedupe store hand on nothing twice.
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventCatchUp, MemoryCheckpointStore } from '../../src/sync/index.js';
import { MemoryDedupeStore, type ShopEvent } from '../../src/webhooks/index.js';
import { eventId, fakeApi, makeEvent } from './fake-api.js';

const { state, client } = fakeApi();

beforeEach(() => {
  state.events = [];
  state.queries = [];
});

const T1 = '2026-09-24T10:00:00Z';
const T1_PLUS_5S = '2026-09-24T10:00:05Z';
const T1_PLUS_10S = '2026-09-24T10:00:10Z';

function recorder() {
  const ids: string[] = [];
  const onEvent = async (event: ShopEvent) => {
    ids.push(event.id);
  };
  return { ids, onEvent };
}

describe('EventCatchUp: an event the feed shows after a run had passed its place', () => {
  for (const withDedupe of [true, false]) {
    const label = withDedupe ? 'with a dedupe store' : 'without a dedupe store';

    it(`hands on an event of the checkpoint's instant that became visible later (${label})`, async () => {
      // Run 1 sees evt_1 and evt_3; evt_2's transaction commits afterwards, with the same created_at.
      state.events = [makeEvent(1, T1), makeEvent(3, T1)];
      const { ids, onEvent } = recorder();
      const catchUp = new EventCatchUp({
        client,
        onEvent,
        checkpoints: new MemoryCheckpointStore(),
        ...(withDedupe ? { dedupe: new MemoryDedupeStore() } : {}),
      });
      await catchUp.run();
      state.events.push(makeEvent(2, T1));
      expect(await catchUp.run()).toMatchObject({ processed: 1 });
      expect(await catchUp.run()).toMatchObject({ processed: 0 });
      expect(ids).toEqual([1, 3, 2].map(eventId));
    });

    it(`hands on an event created shortly before the checkpoint that became visible later (${label})`, async () => {
      state.events = [makeEvent(1, T1), makeEvent(3, T1_PLUS_10S)];
      const { ids, onEvent } = recorder();
      const catchUp = new EventCatchUp({
        client,
        onEvent,
        ...(withDedupe ? { dedupe: new MemoryDedupeStore() } : {}),
      });
      await catchUp.run();
      // Created (and given its id) before evt_3, committed after the first run.
      state.events.push(makeEvent(2, T1_PLUS_5S));
      const second = await catchUp.run();
      expect(state.queries.at(-1)!.query.updated_since).toBe('2026-09-24T09:59:10.000Z');
      expect(second).toMatchObject({ processed: 1, skipped: 2 });
      expect(await catchUp.run()).toMatchObject({ processed: 0 });
      expect(ids).toEqual([1, 3, 2].map(eventId));
    });
  }

  it('hands on every event exactly once, whatever order events within the overlap become visible in', async () => {
    await fc.assert(
      fc.asyncProperty(
        // For each event: its second within a 30 s span, and the step at which its transaction commits.
        fc.array(
          fc.record({ second: fc.integer({ min: 0, max: 30 }), step: fc.integer({ min: 0, max: 4 }) }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        async (events, withDedupe, pageSize) => {
          state.events = [];
          const created = events.map((event, index) => ({
            ...event,
            record: makeEvent(index + 1, `2026-09-24T10:00:${String(event.second).padStart(2, '0')}Z`),
          }));
          const { ids, onEvent } = recorder();
          const catchUp = new EventCatchUp({
            client,
            onEvent,
            pageSize,
            checkpointEvery: 2,
            checkpoints: new MemoryCheckpointStore(),
            ...(withDedupe ? { dedupe: new MemoryDedupeStore() } : {}),
          });
          for (let step = 0; step <= 4; step++) {
            for (const event of created) if (event.step === step) state.events.push(event.record);
            await catchUp.run();
          }
          expect([...ids].sort()).toEqual(created.map((event) => event.record.id));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('re-reads overlapSeconds before the checkpoint, and no more', async () => {
    state.events = [makeEvent(1, T1), makeEvent(2, T1_PLUS_10S)];
    const checkpoints = new MemoryCheckpointStore();
    const { onEvent } = recorder();
    const catchUp = new EventCatchUp({ client, onEvent, checkpoints, overlapSeconds: 5 });
    await catchUp.run();
    // The checkpoint names what it passed within the overlap, so the next run can tell them from new ones.
    expect(checkpoints.load()).toEqual({
      lastEventId: eventId(2),
      createdAt: T1_PLUS_10S,
      seen: [eventId(2)],
      held: [],
    });
    await catchUp.run();
    expect(state.queries.at(-1)!.query.updated_since).toBe('2026-09-24T10:00:05.000Z');
  });

  it('refuses an overlapSeconds that is not a whole number of seconds, 0 or more', () => {
    const { onEvent } = recorder();
    expect(() => new EventCatchUp({ client, onEvent, overlapSeconds: -1 })).toThrow(/overlapSeconds/);
    expect(() => new EventCatchUp({ client, onEvent, overlapSeconds: 1.5 })).toThrow(/overlapSeconds/);
  });
});
