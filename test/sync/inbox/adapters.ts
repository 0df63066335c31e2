// The inbox adapters the shared tests run against: memory and SQLite always, Postgres and Redis when the test
// setup started their servers, D1 when miniflare is installed (test/support/miniflare.ts). Each gives a fresh,
// empty store.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { MemoryInboxStore } from '../../../src/sync/inbox/memory.js';
import { SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';
import type { InboxStore } from '../../../src/sync/inbox/types.js';
import { miniflareMissing, sharedD1 } from '../../support/miniflare.js';

export interface AdapterCase {
  readonly name: string;
  /** True for the SQL adapters, whose handlers get `tx`. */
  readonly sql: boolean;
  /** False when the adapter's server is not there (outside CI). */
  readonly available: boolean;
  /** True when the store's leases run on the server's clock (Redis), not the `now` the inbox passes. */
  readonly serverClock?: boolean;
  /**
   * True when `tx.execute` statements are held and run in one batch with the done mark after the handler
   * (D1: no interactive transaction), so their `changes` are not known inside the handler.
   */
  readonly heldWrites?: boolean;
  readonly open: () => Promise<OpenedStore>;
}

export interface OpenedStore {
  readonly store: InboxStore;
  /**
   * Another store over the same data, as a second worker process would open it (SQLite: another connection
   * to the file, that waits for no lock; Postgres: another pool; Redis: another store on the prefix).
   */
  readonly another: () => Promise<InboxStore>;
  readonly cleanup: () => Promise<void>;
}

// Unique across processes and across test files sharing one (a mutation run's vitest runs every file in
// threads of one process, each with its own copy of this module): a pid and a counter alone are not.
const uniqueTable = () => `inbox_t${randomUUID().replaceAll('-', '').slice(0, 16)}`;

export const adapters: AdapterCase[] = [
  {
    name: 'memory',
    sql: false,
    available: true,
    open: async () => {
      const store = new MemoryInboxStore();
      return { store, another: async () => store, cleanup: async () => undefined };
    },
  },
  {
    name: 'sqlite',
    sql: true,
    available: true,
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'inbox-'));
      const store = await SqliteInboxStore.open(join(dir, 'inbox.db'));
      const others: InboxStore[] = [];
      return {
        store,
        another: async () => {
          const other = await SqliteInboxStore.open(join(dir, 'inbox.db'), { busyTimeoutMs: 0 });
          others.push(other);
          return other;
        },
        cleanup: async () => {
          for (const other of others) await other.close();
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    sql: true,
    available: inject('postgresUrl') !== null,
    open: async () => {
      const { PostgresInboxStore } = await import('../../../src/sync/inbox/postgres.js');
      const table = uniqueTable();
      const store = await PostgresInboxStore.connect(inject('postgresUrl')!, { table });
      const others: InboxStore[] = [];
      return {
        store,
        another: async () => {
          const other = await PostgresInboxStore.connect(inject('postgresUrl')!, { table });
          others.push(other);
          return other;
        },
        cleanup: async () => {
          for (const other of others) await other.close();
          await store.close();
        },
      };
    },
  },
  {
    name: 'redis',
    sql: false,
    available: inject('redisUrl') !== null,
    serverClock: true,
    open: async () => {
      const { createClient } = await import('redis');
      const { RedisInboxStore } = await import('../../../src/sync/inbox/redis.js');
      const client = await createClient({ url: inject('redisUrl')! }).connect();
      const keyPrefix = `{${uniqueTable()}}:`;
      const store = new RedisInboxStore(client, { keyPrefix });
      return {
        store,
        another: async () => new RedisInboxStore(client, { keyPrefix }),
        cleanup: async () => {
          await store.close();
          await client.quit();
        },
      };
    },
  },
  {
    name: 'd1',
    sql: true,
    available: miniflareMissing === null,
    heldWrites: true,
    open: async () => {
      const { D1InboxStore } = await import('../../../src/sync/inbox/d1.js');
      // One workerd per test process; a table per store.
      const db = (await sharedD1()) as import('../../../src/sync/inbox/d1.js').D1DatabaseLike;
      const table = uniqueTable();
      const store = new D1InboxStore(db, { table });
      return {
        store,
        another: async () => new D1InboxStore(db, { table }),
        cleanup: async () => {
          await db.prepare(`DROP TABLE IF EXISTS ${table}`).all();
        },
      };
    },
  },
];
