// shop-mgmt/inbox/d1 from Node against miniflare's D1 (workerd's own D1, through getD1Database): what differs
// from the SQLite store because D1 has no interactive transaction (the handler's writes held and committed in
// one batch with the done mark, a lease taken over while the handler ran commits nothing), duplicate ids
// written at once from several stores, and D1's retryable failures as DatabaseUnavailableError (503). The
// inbox contract shared with the other adapters runs on D1 too (inbox.test.ts, worker.test.ts).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ShopError } from '../../../src/core/errors/shop-error.js';
import { DatabaseUnavailableError } from '../../../src/sync/database-unavailable.js';
import { type D1DatabaseLike, D1InboxStore } from '../../../src/sync/inbox/d1.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import type { InboxTransaction } from '../../../src/sync/inbox/types.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';
import { signPayload } from '../../../src/webhooks/sign.js';
import { miniflareMissing, sharedD1 } from '../../support/miniflare.js';
import { anyEvent } from './events.js';

const quiet = () => undefined;
const unique = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

async function fresh(now: () => number = () => 1_000_000) {
  const db = (await sharedD1()) as D1DatabaseLike;
  const table = unique('inbox_d1');
  const effects = unique('effects');
  await db.prepare(`CREATE TABLE ${effects} (event_id TEXT NOT NULL, attempt INTEGER NOT NULL)`).all();
  const store = new D1InboxStore(db, { table });
  const inbox = new Inbox<InboxTransaction>(store, { now, retryBaseMs: 0 });
  await inbox.ready();
  const count = async (sql: string, ...params: unknown[]) => {
    const { results = [] } = await db
      .prepare(sql)
      .bind(...params)
      .all();
    return Number((results[0] as { n: number }).n);
  };
  return { db, table, effects, store, inbox, count };
}

describe.skipIf(miniflareMissing !== null)('the D1 inbox (miniflare D1)', () => {
  it('keeps one row per event id when the same delivery is written from several stores at once', async () => {
    const { db, table, inbox, count } = await fresh();
    const others = [1, 2, 3].map(() => new Inbox(new D1InboxStore(db, { table })));
    const e = anyEvent();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 4 === 0 ? inbox : others[i % 3]!).add(e, 'webhook')),
    );
    expect(outcomes.filter((outcome) => outcome === 'added')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(19);
    expect(await count(`SELECT count(*) AS n FROM ${table} WHERE event_id = ?`, e.id)).toBe(1);
  });

  it('leases each due event to one worker only when several lease at once', async () => {
    const { db, table, inbox } = await fresh();
    const events = Array.from({ length: 24 }, () => anyEvent());
    for (const e of events) await inbox.add(e);
    const stores = [1, 2, 3, 4].map(() => new D1InboxStore(db, { table }));
    const leased = (
      await Promise.all(
        stores.map((store) =>
          store.lease({ limit: 8, leaseMs: 30_000, now: 1_000_000, ordered: false, worker: 'w' }),
        ),
      )
    ).flat();
    const ids = leased.map((lease) => lease.eventId);
    expect(ids).toHaveLength(24);
    expect(new Set(ids).size).toBe(24);
    expect(new Set(leased.map((lease) => lease.token)).size).toBe(24);
  });

  it("commits the handler's held writes with the done mark, or neither", async () => {
    const { inbox, effects, count } = await fresh();
    const ok = anyEvent();
    const bad = anyEvent();
    await inbox.add(ok);
    await inbox.add(bad);
    const handler = async (e: { id: string }, { tx, attempt }: { tx: InboxTransaction; attempt: number }) => {
      await tx.execute(`INSERT INTO ${effects} (event_id, attempt) VALUES (?, ?)`, [e.id, attempt]);
      // Held until the batch: the handler's read sees the committed rows, not its own write.
      expect(await tx.query(`SELECT * FROM ${effects} WHERE event_id = ?`, [e.id])).toEqual([]);
      if (e.id === bad.id && attempt === 1) throw new Error('after the write');
    };
    expect(await inbox.runOnce(handler, { limit: 10, onError: quiet })).toEqual({
      done: 1,
      failed: 1,
      lost: 0,
    });
    expect(await count(`SELECT count(*) AS n FROM ${effects} WHERE event_id = ?`, ok.id)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM ${effects} WHERE event_id = ?`, bad.id)).toBe(0);
    expect(await inbox.get(bad.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await inbox.runOnce(handler, { onError: quiet })).toEqual({ done: 1, failed: 0, lost: 0 });
    expect(await count(`SELECT count(*) AS n FROM ${effects} WHERE event_id = ?`, bad.id)).toBe(1);
  });

  it('commits nothing of a run whose lease ran out and was taken over while its handler ran', async () => {
    let clock = 1_000_000;
    const { db, table, inbox, effects, count } = await fresh(() => clock);
    const e = anyEvent();
    await inbox.add(e);
    const other = new D1InboxStore(db, { table });
    const first = inbox.runOnce(
      async (event, { tx, attempt }) => {
        await tx.execute(`INSERT INTO ${effects} (event_id, attempt) VALUES (?, ?)`, [event.id, attempt]);
        // This isolate stalls past its lease (no heartbeat reached D1); another worker takes the event
        // over and finishes it.
        clock += 31_000;
        const [taken] = await other.lease({
          limit: 1,
          leaseMs: 30_000,
          now: clock,
          ordered: false,
          worker: 'other',
        });
        expect(taken?.attempt).toBe(2);
        expect(
          await other.complete(
            taken!,
            async (tx2) => {
              await tx2.execute(`INSERT INTO ${effects} (event_id, attempt) VALUES (?, ?)`, [event.id, 2]);
            },
            clock,
          ),
        ).toBe('done');
      },
      { leaseSeconds: 30, handlerTimeoutMs: 60_000, onError: quiet },
    );
    expect(await first).toEqual({ done: 0, failed: 0, lost: 1 });
    expect(await count(`SELECT count(*) AS n FROM ${effects} WHERE event_id = ?`, e.id)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM ${effects} WHERE attempt = 2`)).toBe(1);
    expect(await inbox.get(e.id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(await count(`SELECT count(*) AS n FROM ${table}`)).toBe(1);
  });

  it("says why a held write's changes cannot be read, and refuses a write through tx.query", async () => {
    const { inbox, effects } = await fresh();
    await inbox.add(anyEvent());
    const errors: unknown[] = [];
    await inbox.runOnce(
      async (e, { tx }) => {
        const result = await tx.execute(`INSERT INTO ${effects} (event_id, attempt) VALUES (?, 1)`, [e.id]);
        errors.push(
          (() => {
            try {
              return result.changes;
            } catch (error) {
              return error;
            }
          })(),
        );
        errors.push(
          await tx
            .query(`INSERT INTO ${effects} (event_id, attempt) VALUES ('x', 1) RETURNING *`)
            .catch((x) => x),
        );
      },
      { onError: quiet },
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(ShopError);
    expect(String((errors[0] as Error).message)).toMatch(/not known inside the handler/);
    expect(errors[1]).toBeInstanceOf(ShopError);
    expect(String((errors[1] as Error).message)).toMatch(/tx\.query runs reads/);
  });

  it("turns D1's retryable failures into DatabaseUnavailableError, and the webhook handler answers 503", async () => {
    const lost = new Error('D1_ERROR: Network connection lost.');
    const failing: D1DatabaseLike = {
      prepare: () => ({
        bind() {
          return this;
        },
        all: async () => {
          throw lost;
        },
      }),
      batch: async () => {
        throw lost;
      },
    };
    const store = new D1InboxStore(failing);
    const added = await store
      .add({ event: anyEvent(), source: 'webhook', orderingKey: null, now: 1 })
      .catch((error: unknown) => error);
    expect(added).toBeInstanceOf(DatabaseUnavailableError);
    expect((added as DatabaseUnavailableError).cause).toBe(lost);
    const secret = 'whsec_d1_test';
    const webhooks = createWebhookHandler({ secret, inbox: new Inbox(store), onError: quiet });
    const body = JSON.stringify(anyEvent());
    const response = await webhooks(
      new Request('https://receiver.test/webhooks', {
        method: 'POST',
        headers: { 'service-signature': await signPayload({ body, secret }) },
        body,
      }),
    );
    expect(response.status).toBe(503);
    // A SQL mistake is no outage: it stays D1's own error.
    const wrong = new Error('D1_ERROR: no such table: nope: SQLITE_ERROR');
    const broken = { ...failing, batch: async () => Promise.reject(wrong) };
    await expect(new D1InboxStore(broken).setup()).rejects.toBe(wrong);
  });

  it('refuses what is not a D1 binding with a ShopError', () => {
    expect(() => new D1InboxStore({} as D1DatabaseLike)).toThrow(ShopError);
    expect(() => new D1InboxStore({} as D1DatabaseLike)).toThrow(/D1 database binding/);
  });
});
