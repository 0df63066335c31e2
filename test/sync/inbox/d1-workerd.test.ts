// shop-mgmt/inbox/d1 in workerd through miniflare, as docs/webhooks-on-workers.md sets it up (d1-worker.ts):
// 60 signed deliveries (30 reservations, booked and cancelled, some cancelled sent first) over the Worker's
// fetch, each in D1 when its 200 comes back; duplicates and a forgery; a Queue consumer draining the inbox
// while some handlers throw after their write and one hangs, where workerd is torn down (isolate and
// process) mid-batch; a second workerd on the same D1 files drains the rest from its `scheduled` handler.
// Counted at the end: every event applied exactly once, in order per reservation; nothing lost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { D1DatabaseLike } from '../../../src/sync/inbox/d1.js';
import type { ShopEvent } from '../../../src/webhooks/events.js';
import { signPayload } from '../../../src/webhooks/sign.js';
import { type MiniflareLike, miniflareMissing, newMiniflare } from '../../support/miniflare.js';
import { at, booked, cancelled } from './events.js';

const SECRET = 'whsec_d1_workerd_test';
const root = fileURLToPath(new URL('../../../', import.meta.url));

async function rows<T>(db: D1DatabaseLike, sql: string, ...params: unknown[]): Promise<T[]> {
  return ((
    await db
      .prepare(sql)
      .bind(...params)
      .all()
  ).results ?? []) as T[];
}

describe.skipIf(miniflareMissing !== null)('the D1 inbox in workerd (miniflare)', () => {
  let dir: string;
  let script: string;
  const running: MiniflareLike[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'd1-workerd-'));
    const bundle = await build({
      entryPoints: [join(root, 'test/sync/inbox/d1-worker.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      metafile: true,
      logLevel: 'silent',
    });
    // What runs in workerd imports no node: module (and workerd runs it without nodejs_compat below).
    const imports = Object.values(bundle.metafile.inputs).flatMap((input) =>
      input.imports.map((i) => i.path),
    );
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((path) => path.startsWith('node:'))).toEqual([]);
    script = bundle.outputFiles[0]!.text;
  });

  afterAll(async () => {
    for (const mf of running) await mf.dispose().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  function start(bindings: Record<string, string>): MiniflareLike {
    const mf = newMiniflare({
      modules: true,
      script,
      compatibilityDate: '2025-09-01',
      d1Databases: ['DB'],
      d1Persist: join(dir, 'd1'),
      queueProducers: { QUEUE: { queueName: 'inbox-wake' } },
      queueConsumers: { 'inbox-wake': { maxBatchSize: 10, maxBatchTimeout: 1 } },
      bindings: { SECRET, ...bindings },
    });
    running.push(mf);
    return mf;
  }

  it('writes each delivery before its 200, survives a throw and a torn-down isolate mid-batch: 0 lost, none applied twice', async () => {
    const events: ShopEvent[] = [];
    for (let id = 1; id <= 30; id++) {
      const first = booked(8000 + id, at(id));
      const second = cancelled(8000 + id, at(id + 30));
      // Every third reservation's cancellation arrives before its booking.
      events.push(...(id % 3 === 0 ? [second, first] : [first, second]));
    }
    const byId = new Map(events.map((e) => [e.id, e]));
    const bookedOf = (id: number) => events.find((e) => e.type.endsWith('booked') && objectId(e) === id)!;
    const hang = bookedOf(8010);
    const flaky = [bookedOf(8003), bookedOf(8007), events.find((e) => objectId(e) === 8012)!];

    const mf1 = start({ HANG_ID: hang.id, FLAKY: flaky.map((e) => e.id).join(','), GATE: '1' });
    const db1 = (await mf1.getD1Database('DB')) as D1DatabaseLike;
    await db1.prepare('CREATE TABLE effects (event_id TEXT NOT NULL, attempt INTEGER NOT NULL)').all();
    await db1.prepare('CREATE TABLE marks (what TEXT NOT NULL)').all();

    const deliver = async (body: string, signature?: string) =>
      mf1.dispatchFetch('http://worker.test/webhooks/shop', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'service-signature': signature ?? (await signPayload({ body, secret: SECRET })),
        },
        body,
      });
    for (const e of events) {
      const response = await deliver(JSON.stringify(e));
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      // Answered after the D1 write: the row is there when the 200 is.
      const stored = await rows<{ n: number }>(
        db1,
        'SELECT count(*) AS n FROM shop_inbox WHERE event_id = ?',
        e.id,
      );
      expect(stored).toEqual([{ n: 1 }]);
    }
    // Duplicates are answered 200 and stored once; a forgery is refused and not stored.
    for (const e of events.slice(0, 10)) {
      const response = await deliver(JSON.stringify(e));
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const body = JSON.stringify({ ...events[0]!, id: 'evt_forged' });
    const forged = await deliver(body, await signPayload({ body: `${body} `, secret: SECRET }));
    expect(forged.status).toBe(400);
    await forged.arrayBuffer();
    expect(await rows(db1, 'SELECT count(*) AS n FROM shop_inbox')).toEqual([{ n: 60 }]);
    expect(await rows(db1, "SELECT count(*) AS n FROM shop_inbox WHERE status = 'done'")).toEqual([{ n: 0 }]);

    // Every delivery is in: the queue consumer may drain (a duplicate's 200 nudges it), until the hanging
    // handler; then workerd goes, mid-batch.
    await db1.prepare("INSERT INTO marks (what) VALUES ('go')").all();
    const nudge = await deliver(JSON.stringify(events[0]));
    expect(nudge.status).toBe(200);
    await nudge.arrayBuffer();
    await vi.waitFor(
      async () =>
        expect(await rows(db1, "SELECT what FROM marks WHERE what <> 'go'")).toEqual([
          { what: `hung ${hang.id}` },
        ]),
      { timeout: 60_000, interval: 50 },
    );
    const atTeardown = await rows<{ status: string; n: number }>(
      db1,
      'SELECT status, count(*) AS n FROM shop_inbox GROUP BY status ORDER BY status',
    );
    await mf1.dispose();
    running.splice(running.indexOf(mf1), 1);
    // Mid-batch: some events done, the hung one (at least) not.
    const doneAtTeardown = atTeardown.find((row) => row.status === 'done')?.n ?? 0;
    expect(doneAtTeardown).toBeGreaterThan(0);
    expect(doneAtTeardown).toBeLessThan(60);

    // A new workerd on the same D1: its cron drains the rest once the torn-down isolate's leases run out.
    const mf2 = start({ FLAKY: flaky.map((e) => e.id).join(',') });
    const db2 = (await mf2.getD1Database('DB')) as D1DatabaseLike;
    const worker = await mf2.getWorker();
    await vi.waitFor(
      async () => {
        const result = await worker.scheduled({ cron: '* * * * *' });
        expect(result.outcome).toBe('ok');
        expect(await rows(db2, "SELECT count(*) AS n FROM shop_inbox WHERE status <> 'done'")).toEqual([
          { n: 0 },
        ]);
      },
      { timeout: 60_000, interval: 200 },
    );

    const applied = await rows<{ event_id: string; attempt: number }>(
      db2,
      'SELECT event_id, attempt FROM effects ORDER BY rowid',
    );
    const counts = new Map<string, number>();
    for (const { event_id } of applied) counts.set(event_id, (counts.get(event_id) ?? 0) + 1);
    // 0 lost, none applied twice.
    expect(counts.size).toBe(60);
    expect([...counts.keys()].sort()).toEqual([...byId.keys()].sort());
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    expect(applied).toHaveLength(60);
    // The hung run's write and the failed runs' writes never committed: their effect is the second run's.
    for (const e of [hang, ...flaky]) {
      expect(applied.find((row) => row.event_id === e.id)?.attempt).toBeGreaterThan(1);
    }
    // Per reservation, the booking before the cancellation, whatever the arrival order.
    const position = new Map(applied.map((row, index) => [row.event_id, index]));
    const outOfOrder = events.filter(
      (e) => e.type.endsWith('cancelled') && position.get(e.id)! < position.get(bookedOf(objectId(e)).id)!,
    );
    expect(outOfOrder).toEqual([]);
    expect(await rows(db2, "SELECT count(*) AS n FROM shop_inbox WHERE status = 'dead'")).toEqual([{ n: 0 }]);
    console.log(
      `[d1 workerd] at teardown ${JSON.stringify(atTeardown)}; after: 60 done, ${applied.length} effects`,
    );
  }, 120_000);
});

function objectId(e: ShopEvent): number {
  return Number((e.data.object as { id?: unknown }).id);
}
