// The Inbox's own rules, as a partner sees them through its public API (`shop-mgmt/inbox`): what it refuses,
// its defaults (attempts, back-off, retention, batch sizes), what it asks its store for, and how it recovers
// from a store that failed once. Written against the mutants Stryker left alive in src/sync/inbox/inbox.ts
// (bench/mutation-report.md): each test fails with the rule it names broken.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShopError } from '../../../src/core/errors/shop-error.js';
import {
  Inbox,
  type InboxLease,
  type InboxStore,
  type LeaseRequest,
  MemoryInboxStore,
  type PruneRequest,
} from '../../../src/sync/inbox/index.js';
import { anyEvent } from './events.js';

const quiet = () => undefined;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A MemoryInboxStore that records what the inbox asks of it (an adapter a partner could write). */
class RecordingStore extends MemoryInboxStore {
  readonly leases: LeaseRequest[] = [];
  readonly prunes: PruneRequest[] = [];
  override async lease(request: LeaseRequest): Promise<InboxLease[]> {
    this.leases.push(request);
    return super.lease(request);
  }
  override async prune(request: PruneRequest): Promise<number> {
    this.prunes.push(request);
    return super.prune(request);
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('what the Inbox refuses', () => {
  it('a store without add or lease, with a ShopError naming the stores', () => {
    const message = 'Inbox needs an InboxStore (MemoryInboxStore, SqliteInboxStore, ...).';
    const store = new MemoryInboxStore();
    expect(() => new Inbox(undefined as unknown as InboxStore)).toThrow(new ShopError(message));
    expect(() => new Inbox({ lease: store.lease } as unknown as InboxStore)).toThrow(new ShopError(message));
    expect(() => new Inbox({ add: store.add } as unknown as InboxStore)).toThrow(new ShopError(message));
  });

  it('an event without an id, before the store is touched', async () => {
    const store = new MemoryInboxStore();
    const add = vi.spyOn(store, 'add');
    const inbox = new Inbox(store);
    const noId = { ...anyEvent(), id: '' };
    await expect(inbox.add(noId)).rejects.toThrow(new ShopError('An inbox event needs an id.'));
    await expect(inbox.add({ ...noId, id: 5 as unknown as string })).rejects.toThrow(ShopError);
    await expect(inbox.add(undefined as never)).rejects.toThrow(ShopError);
    expect(add).not.toHaveBeenCalled();
  });

  it('a worker without a handler function, and option values that are not whole numbers', async () => {
    const inbox = new Inbox(new MemoryInboxStore());
    expect(() => inbox.work(undefined as never)).toThrow(
      new ShopError('Inbox.work needs a handler function.'),
    );
    expect(() => new Inbox(new MemoryInboxStore(), { maxAttempts: 0 })).toThrow(
      new ShopError('maxAttempts must be a whole number, 1 or more, got 0.'),
    );
    await expect(inbox.prune(0)).rejects.toThrow(
      new ShopError('limit must be a whole number, 1 or more, got 0.'),
    );
  });
});

describe('the store set up once', () => {
  it('sets the store up again after a failed setup, and only once after a good one', async () => {
    const store = new MemoryInboxStore();
    let calls = 0;
    vi.spyOn(store, 'setup').mockImplementation(async () => {
      calls++;
      if (calls === 1) throw new Error('database starting up');
    });
    const inbox = new Inbox(store);
    await expect(inbox.add(anyEvent())).rejects.toThrow('database starting up');
    expect(await inbox.add(anyEvent())).toBe('added');
    await inbox.ready();
    await inbox.list('pending');
    expect(calls).toBe(2);
  });
});

describe('the defaults', () => {
  it('dead-letters an event after 10 failed runs', async () => {
    let clock = 1_000_000;
    const inbox = new Inbox(new MemoryInboxStore(), { now: () => clock });
    const e = anyEvent();
    await inbox.add(e);
    const failing = async () => {
      throw new Error('no');
    };
    for (let run = 1; run <= 9; run++) {
      expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(1);
      expect(await inbox.get(e.id)).toMatchObject({ status: 'pending', attempts: run });
      clock += 3_600_000;
    }
    expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(1);
    expect(await inbox.get(e.id)).toMatchObject({ status: 'dead', attempts: 10 });
  });

  it('waits between half and all of 1 s doubled per attempt, at most an hour, before a retry', async () => {
    let clock = 1_000_000;
    const inbox = new Inbox(new MemoryInboxStore(), { now: () => clock, maxAttempts: 20 });
    await inbox.add(anyEvent());
    const failing = async () => {
      throw new Error('no');
    };
    let failedAt = clock;
    /** Runs the event, due now, into a failure with Math.random giving `jitter`. */
    const failNow = async (jitter: number) => {
      vi.spyOn(Math, 'random').mockReturnValue(jitter);
      expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(1);
      vi.restoreAllMocks();
      failedAt = clock;
    };
    /** Not due 1 ms before `after` ms past its failure; the clock is then set to `after` (the next failNow). */
    const dueAfter = async (after: number) => {
      clock = failedAt + after - 1;
      expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(0);
      clock = failedAt + after;
    };
    // Attempt 1: 1000 ms; the jitter's least is half of it.
    await failNow(0);
    await dueAfter(500);
    // Attempt 2: 2000 ms, with a jitter of a half: 1000 + 500.
    await failNow(0.5);
    await dueAfter(1500);
    // Attempts 3 to 12 double from 4 s to 512 s (the jitter's most: all of it).
    for (let attempt = 3; attempt <= 12; attempt++) {
      await failNow(1);
      await dueAfter(1000 * 2 ** (attempt - 1));
    }
    // Attempt 13 would be 4096 s: an hour at most, and half an hour at the least jitter.
    await failNow(1);
    await dueAfter(3_600_000);
    await failNow(0);
    await dueAfter(1_800_000);
    await failNow(0);
  });

  it('keeps done events 31 days and dead letters until handled, pruning 500 at a time', async () => {
    let clock = 1_000_000;
    const store = new RecordingStore();
    const inbox = new Inbox(store, { now: () => clock, maxAttempts: 1 });
    const events = Array.from({ length: 501 }, () => anyEvent());
    for (const e of events) await inbox.add(e);
    const dead = anyEvent();
    await inbox.add(dead);
    expect(
      await inbox.runOnce(
        async (e) => {
          if (e.id === dead.id) throw new Error('no');
        },
        { limit: 502, onError: quiet },
      ),
    ).toEqual({ done: 501, failed: 1, lost: 0 });
    clock += 31 * DAY_MS;
    expect(await inbox.prune()).toBe(0);
    clock += 1;
    expect(await inbox.prune()).toBe(500);
    expect(await inbox.prune()).toBe(1);
    expect(await inbox.prune()).toBe(0);
    expect(await inbox.get(dead.id)).toMatchObject({ status: 'dead' });
    expect(store.prunes.at(-1)).toEqual({
      doneBefore: clock - 31 * DAY_MS,
      deadBefore: null,
      limit: 500,
      now: clock,
    });
  });

  it('prunes dead letters past deadMs, and done events past doneMs', async () => {
    let clock = 1_000_000;
    const store = new RecordingStore();
    const inbox = new Inbox(store, {
      now: () => clock,
      maxAttempts: 1,
      retention: { doneMs: 10, deadMs: 20 },
    });
    const done = anyEvent();
    const dead = anyEvent();
    await inbox.add(done);
    await inbox.add(dead);
    await inbox.runOnce(
      async (e) => {
        if (e.id === dead.id) throw new Error('no');
      },
      { onError: quiet },
    );
    clock += 11;
    expect(await inbox.prune(10)).toBe(1);
    expect(await inbox.get(done.id)).toBeNull();
    expect(await inbox.get(dead.id)).toMatchObject({ status: 'dead' });
    clock += 10;
    expect(await inbox.prune(10)).toBe(1);
    expect(await inbox.get(dead.id)).toBeNull();
    expect(store.prunes.at(-1)).toEqual({
      doneBefore: clock - 10,
      deadBefore: clock - 20,
      limit: 10,
      now: clock,
    });
  });

  it('lists 100 entries unless told, dead letters too', async () => {
    const inbox = new Inbox(new MemoryInboxStore(), { maxAttempts: 1 });
    for (let i = 0; i < 101; i++) await inbox.add(anyEvent());
    expect(await inbox.list('pending')).toHaveLength(100);
    expect(await inbox.list('pending', 101)).toHaveLength(101);
    await inbox.runOnce(
      async () => {
        throw new Error('no');
      },
      { limit: 101, onError: quiet },
    );
    expect(await inbox.deadLetters()).toHaveLength(100);
    expect(await inbox.deadLetters(3)).toHaveLength(3);
  });

  it('runs 4 events in a runOnce unless given a limit or a concurrency', async () => {
    const inbox = new Inbox(new MemoryInboxStore());
    for (let i = 0; i < 12; i++) await inbox.add(anyEvent());
    const ok = async () => undefined;
    expect((await inbox.runOnce(ok)).done).toBe(4);
    expect((await inbox.runOnce(ok, { concurrency: 3 })).done).toBe(3);
    expect((await inbox.runOnce(ok, { concurrency: 3, limit: 5 })).done).toBe(5);
  });
});

describe('what the Inbox asks its store for', () => {
  it('a lease of 30 s by default, under a worker name, with the retry horizon, ordered when asked', async () => {
    let clock = 5_000;
    const store = new RecordingStore();
    const inbox = new Inbox(store, { now: () => clock, retryMaxMs: 7000 });
    await inbox.runOnce(async () => undefined);
    expect(store.leases).toEqual([
      {
        limit: 4,
        leaseMs: 30_000,
        now: 5_000,
        ordered: false,
        worker: expect.stringMatching(/^worker-[0-9a-f-]{36}$/),
        alone: true,
        retryHorizonMs: 7000,
      },
    ]);
    clock = 6_000;
    const ordered = new Inbox(store, { now: () => clock, orderingKey: true });
    await ordered.runOnce(async () => undefined, { leaseSeconds: 2, name: 'w1', limit: 2 });
    expect(store.leases.at(-1)).toEqual({
      limit: 2,
      leaseMs: 2000,
      now: 6_000,
      ordered: true,
      worker: 'w1',
      alone: true,
      retryHorizonMs: 3_600_000,
    });
  });

  it('the ordering key a function gives, as text, or the object the event is about', async () => {
    const store = new MemoryInboxStore();
    const byFunction = new Inbox(store, { orderingKey: (e) => e.data.object.id });
    const e = anyEvent(4242);
    await byFunction.add(e);
    expect((await byFunction.get(e.id))?.orderingKey).toBe('4242');
    const byObject = new Inbox(store, { orderingKey: true });
    const f = anyEvent(77);
    await byObject.add(f);
    expect((await byObject.get(f.id))?.orderingKey).toMatch(/77/);
    const none = new Inbox(store);
    const g = anyEvent(78);
    await none.add(g);
    expect((await none.get(g.id))?.orderingKey).toBeNull();
  });
});

describe('the worker loop', () => {
  it('runs an event whose last run never finished alone, then the rest side by side', async () => {
    let clock = 1_000_000;
    const store = new RecordingStore();
    const inbox = new Inbox(store, { now: () => clock });
    const suspect = anyEvent();
    await inbox.add(suspect);
    // A worker leased it and died: its lease runs out with the run never settled.
    expect(
      await store.lease({ limit: 1, leaseMs: 1000, now: clock, ordered: false, worker: 'dead' }),
    ).toHaveLength(1);
    clock += 1001;
    const others = [anyEvent(), anyEvent(), anyEvent()];
    for (const e of others) await inbox.add(e);
    const started: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let suspectStarted!: () => void;
    const suspectRunning = new Promise<void>((resolve) => {
      suspectStarted = resolve;
    });
    let inFlight = 0;
    let most = 0;
    const worker = inbox.work(
      async (e) => {
        started.push(e.id);
        inFlight++;
        most = Math.max(most, inFlight);
        if (e.id === suspect.id) {
          suspectStarted();
          await released;
        } else {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        inFlight--;
      },
      { concurrency: 4, pollMs: 2, onError: quiet },
    );
    await suspectRunning;
    // Some polls go by with the suspect in hand: none leases anything.
    const leasesBefore = store.leases.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toEqual([suspect.id]);
    expect(store.leases.length).toBe(leasesBefore);
    release();
    await worker.idle();
    await worker.stop();
    expect(started.slice(1).sort()).toEqual(others.map((e) => e.id).sort());
    expect(most).toBe(3);
    // The worker's first request (the one before it is the dead worker's).
    expect(store.leases[1]).toMatchObject({ alone: true, limit: 4 });
    // With events in hand the worker asks for the rest of its slots, and no suspect.
    expect(store.leases.some((request) => request.alone === false && request.limit < 4)).toBe(true);
    expect(await inbox.get(suspect.id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('prunes what is past retention once idle, without being asked', async () => {
    let clock = 1_000_000;
    const inbox = new Inbox(new MemoryInboxStore(), { now: () => clock, retention: { doneMs: 10 } });
    const old = anyEvent();
    await inbox.add(old);
    await inbox.runOnce(async () => undefined);
    clock += 11;
    const worker = inbox.work(async () => undefined, { pollMs: 2, onError: quiet });
    await vi.waitFor(async () => expect(await inbox.get(old.id)).toBeNull());
    await worker.stop();
  });

  it("stop() resolves once the handler's deadline (a third of the lease) cuts a hung handler off", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const inbox = new Inbox(new MemoryInboxStore());
    await inbox.add(anyEvent());
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const worker = inbox.work(
      async () => {
        started();
        await new Promise<never>(() => undefined);
      },
      { leaseSeconds: 3, onError: quiet },
    );
    await vi.advanceTimersByTimeAsync(0);
    await running;
    let stopped = false;
    void worker.stop().then(() => {
      stopped = true;
    });
    // The handler's own deadline (a third of the lease, 1000 ms) cuts it: stop() resolves then.
    await vi.advanceTimersByTimeAsync(999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(stopped).toBe(true));
  });
});

describe('option errors name the option', () => {
  it('names each option given a value it refuses', async () => {
    const store = new MemoryInboxStore();
    const refused = (build: () => unknown, text: string) =>
      expect(build).toThrow(
        new ShopError(`${text} must be a whole number, ${text === 'maxAttempts' ? 1 : 0} or more, got -1.`),
      );
    refused(() => new Inbox(store, { maxAttempts: -1 }), 'maxAttempts');
    refused(() => new Inbox(store, { retryBaseMs: -1 }), 'retryBaseMs');
    refused(() => new Inbox(store, { retryMaxMs: -1 }), 'retryMaxMs');
    refused(() => new Inbox(store, { retention: { doneMs: -1 } }), 'retention.doneMs');
    refused(() => new Inbox(store, { retention: { deadMs: -1 } }), 'retention.deadMs');
    const inbox = new Inbox(store);
    const ok = async () => undefined;
    const atLeastOne = (options: Parameters<Inbox['work']>[1], text: string) =>
      expect(() => inbox.work(ok, options)).toThrow(
        new ShopError(`${text} must be a whole number, 1 or more, got 0.`),
      );
    atLeastOne({ concurrency: 0 }, 'concurrency');
    atLeastOne({ pollMs: 0 }, 'pollMs');
    atLeastOne({ leaseSeconds: 0 }, 'leaseSeconds');
    atLeastOne({ handlerTimeoutMs: 0 }, 'handlerTimeoutMs');
    expect(() => inbox.work(ok, { stopTimeoutMs: -1 })).toThrow(
      new ShopError('stopTimeoutMs must be a whole number, 0 or more, got -1.'),
    );
  });
});

describe('what the worker tells onError', () => {
  it('a failed setup, a failed lease, a failed prune and a failed renewal, and it goes on', async () => {
    const store = new MemoryInboxStore();
    /** True the first time only. */
    const once = () => {
      let failed = false;
      return () => {
        if (failed) return false;
        failed = true;
        return true;
      };
    };
    const setupOnce = once();
    const leaseOnce = once();
    const pruneOnce = once();
    const renewOnce = once();
    const setup = store.setup.bind(store);
    const lease = store.lease.bind(store);
    const prune = store.prune.bind(store);
    const renew = store.renew.bind(store);
    vi.spyOn(store, 'setup').mockImplementation(async () => {
      if (setupOnce()) throw new Error('setup failed');
      return setup();
    });
    vi.spyOn(store, 'lease').mockImplementation(async (request) => {
      if (leaseOnce()) throw new Error('lease failed');
      return lease(request);
    });
    vi.spyOn(store, 'prune').mockImplementation(async (request) => {
      if (pruneOnce()) throw new Error('prune failed');
      return prune(request);
    });
    vi.spyOn(store, 'renew').mockImplementation(async (...args) => {
      if (renewOnce()) throw new Error('renew failed');
      return renew(...args);
    });
    const errors: [string, unknown][] = [];
    const inbox = new Inbox(store);
    const e = anyEvent();
    const worker = inbox.work(
      async () => {
        // Held until the heartbeat (a third of the 1 s lease) has failed once.
        await vi.waitFor(() => expect(errors.map(([message]) => message)).toContain('renew failed'), {
          timeout: 30_000,
        });
      },
      {
        leaseSeconds: 1,
        handlerTimeoutMs: 20_000,
        pollMs: 2,
        onError: (error, entry) => errors.push([(error as Error).message, entry]),
      },
    );
    await vi.waitFor(() => expect(errors.map(([message]) => message)).toContain('prune failed'));
    await inbox.add(e);
    await vi.waitFor(async () => expect(await inbox.get(e.id)).toMatchObject({ status: 'done' }), {
      timeout: 30_000,
    });
    await worker.stop();
    expect(errors).toEqual([
      ['setup failed', null],
      ['lease failed', null],
      ['prune failed', null],
      ['renew failed', { eventId: e.id, attempt: 1 }],
    ]);
  });

  it('idle() waits for the events in hand', async () => {
    const inbox = new Inbox(new MemoryInboxStore());
    const e = anyEvent();
    await inbox.add(e);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let running!: () => void;
    const started = new Promise<void>((resolve) => {
      running = resolve;
    });
    const worker = inbox.work(
      async () => {
        running();
        await released;
      },
      { pollMs: 2, onError: quiet },
    );
    await started;
    let idle = false;
    void worker.idle().then(() => {
      idle = true;
    });
    // Polls go by with the event in hand: idle() stays pending.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(idle).toBe(false);
    release();
    await vi.waitFor(() => expect(idle).toBe(true));
    expect(await inbox.get(e.id)).toMatchObject({ status: 'done' });
    await worker.stop();
  });

  it("ends the handler's signal once its run is settled, and dead-letters a run that never finished", async () => {
    let clock = 1_000_000;
    const inbox = new Inbox(new MemoryInboxStore(), { now: () => clock, maxAttempts: 1 });
    await inbox.add(anyEvent());
    let seen: AbortSignal | undefined;
    expect(
      await inbox.runOnce(async (_e, { signal }) => {
        seen = signal;
      }),
    ).toEqual({ done: 1, failed: 0, lost: 0 });
    expect(seen?.aborted).toBe(true);
    const dead = anyEvent();
    await inbox.add(dead);
    await inbox.store.lease({ limit: 1, leaseMs: 1000, now: clock, ordered: false, worker: 'dead' });
    clock += 1001;
    expect((await inbox.runOnce(async () => undefined, { onError: quiet })).failed).toBe(1);
    expect(await inbox.get(dead.id)).toMatchObject({
      status: 'dead',
      lastError: 'ShopError: No run finished in 1 attempts.',
    });
  });
});
