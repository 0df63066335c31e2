// A SQLite inbox whose file another process holds the write lock of: SQLite's own busy wait is synchronous,
// so each queued delivery used to block the receiver's event loop for the whole busy timeout (2 s each,
// stacked past the sender's 10 s, the 500 ms store bound no bound at all). The store now waits between
// attempts: every delivery is answered 503 at the receiver's bound, and once the lock is gone the sender's
// retries are taken.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../../src/sync/database-unavailable.js';
import { openSyncDatabase } from '../../../src/sync/engine/database.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';
import { buildEvent, signedDelivery } from '../../../src/testing/factories/index.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';

const root = resolve(import.meta.dirname, '../../..');
const SECRET = 'whsec_sqlite_lock_test';
/** The store's wait for the lock: each delivery used to block the event loop this long. */
const BUSY_MS = 3000;
const DELIVERIES = 8;

/** A second process that takes the file's write lock (BEGIN IMMEDIATE) and holds it until its stdin ends. */
function holdWriteLock(file: string): Promise<ChildProcess> {
  const script = `
    let db;
    // better-sqlite3's native part loads on first use: one built for another Node throws here, not at require.
    try { db = new (require('better-sqlite3'))(process.argv[1]); }
    catch { db = new (require('node:sqlite').DatabaseSync)(process.argv[1]); }
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    process.stdin.on('data', () => {});
    process.stdin.on('end', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['-e', script, file], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) done(child);
    });
    child.once('exit', (code) => fail(new Error(`the lock holder exited with ${code}`)));
  });
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('a SQLite inbox whose file another process holds locked', () => {
  it(`answers each of ${DELIVERIES} deliveries 503 within the store's bound, then takes them all`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-lock-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'inbox.db');
    const store = await SqliteInboxStore.open(file, { busyTimeoutMs: BUSY_MS });
    cleanup.push(() => store.close());
    const inbox = new Inbox(store);
    await inbox.ready();
    const errors: string[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      inbox,
      onError: (error) => errors.push((error as Error).name),
    });
    const server: Server = createServer((request, response) => void handler.node(request, response));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    cleanup.push(() => new Promise<void>((done) => server.close(() => done())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const events = Array.from({ length: DELIVERIES }, (_, i) =>
      buildEvent('sale.completed', { id: `evt_lock_${i}` }),
    );
    const send = async (event: (typeof events)[number], attempt: number) => {
      const delivery = await signedDelivery(event, { secret: SECRET, attempt });
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
      const body = (await response.json()) as { error?: { type?: string } };
      return { status: response.status, type: body.error?.type ?? null, ms: performance.now() - started };
    };

    const holder = await holdWriteLock(file);
    const exited = new Promise((done) => holder.once('exit', done));
    cleanup.push(() => {
      if (holder.exitCode === null) holder.kill('SIGKILL');
    });
    const locked = await Promise.all(events.map((event) => send(event, 1)));
    const slowest = Math.max(...locked.map((answer) => answer.ms));
    console.log(
      `[db faults, sqlite] ${DELIVERIES} deliveries at once on a locked file: ${locked.map((a) => `${a.status} in ${Math.round(a.ms)} ms`).join(', ')}`,
    );
    expect(locked.map((answer) => `${answer.status} ${answer.type}`)).toEqual(
      events.map(() => '503 inbox_unavailable'),
    );
    // Each stacked on the others' synchronous waits before: the first alone took the whole BUSY_MS.
    expect(slowest).toBeLessThan(BUSY_MS);
    expect(errors).toHaveLength(DELIVERIES);

    // A store with a short wait: the call itself fails with the typed, retryable error.
    const impatient = await SqliteInboxStore.open(file, { busyTimeoutMs: 100 });
    cleanup.push(() => impatient.close());
    const refused = await new Inbox(impatient)
      .add(buildEvent('sale.completed'), 'manual')
      .catch((error) => error);
    expect(refused).toBeInstanceOf(DatabaseUnavailableError);
    expect((refused as DatabaseUnavailableError).retryable).toBe(true);
    expect((refused as Error).message).toMatch(/locked by another process/);

    holder.stdin?.end();
    await exited;
    const after = await Promise.all(events.map((event) => send(event, 2)));
    expect(after.map((answer) => answer.status)).toEqual(events.map(() => 200));
    const held = await Promise.all(events.map((event) => inbox.get(event.id)));
    expect(held.map((entry) => entry?.eventId)).toEqual(events.map((event) => event.id));
  });

  it("the sync engine's transaction waits for the lock without stopping the process, then commits", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-lock-engine-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'shop.db');
    const db = await openSyncDatabase(file);
    cleanup.push(() => db.close());
    await db.run('CREATE TABLE rows (id INTEGER)');
    const holder = await holdWriteLock(file);
    const exited = new Promise((done) => holder.once('exit', done));
    cleanup.push(() => {
      if (holder.exitCode === null) holder.kill('SIGKILL');
    });
    let settled = false;
    const writing = db.transaction((tx) => tx.run('INSERT INTO rows (id) VALUES (?)', [1]));
    void writing.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    // A timer fires while the transaction waits for the lock: SQLite's own wait blocked the event loop for its
    // whole 10 s, and the transaction had failed ("database is locked") before this timer could run.
    await new Promise((done) => setTimeout(done, 300));
    expect(settled).toBe(false);
    holder.stdin?.end();
    await exited;
    await expect(writing).resolves.toBe(1);
    expect(await db.all('SELECT id FROM rows')).toEqual([{ id: 1 }]);
  });
});
