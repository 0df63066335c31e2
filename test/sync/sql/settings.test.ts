// The inbox and the sync engine open Postgres through one layer (src/sync/sql/postgres.ts) with one set of
// settings: the server itself answers `SHOW statement_timeout` the same on a connection of each (the issue
// found the engine's pool without one while the inbox's had 5 s). Real PostgreSQL of the test setup.
import { afterEach, describe, expect, it } from 'vitest';
import { openSyncDatabase, type SyncDatabase } from '../../../src/sync/engine/database.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { PostgresInboxStore } from '../../../src/sync/inbox/postgres.js';
import { POSTGRES_POOL_DEFAULTS } from '../../../src/sync/sql/postgres.js';
import { postgresDatabase, postgresUrl } from '../engine/support.js';
import { anyEvent } from '../inbox/events.js';

describe.runIf(postgresUrl)('one Postgres setting for the inbox and the engine', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  it('gives the inbox handler and the engine the same statement_timeout, the shared default', async () => {
    const made = await postgresDatabase();
    closing.push(made.cleanup);
    const store = await PostgresInboxStore.connect(made.url);
    closing.push(() => store.close());
    const engine: SyncDatabase = await openSyncDatabase(made.url);
    closing.push(() => engine.close());

    const inbox = new Inbox(store);
    await inbox.ready();
    await inbox.add(anyEvent(), 'webhook');
    const inboxSeen: string[] = [];
    const result = await inbox.runOnce(async (_event, { tx }) => {
      const rows = await tx!.query<{ statement_timeout: string }>('SHOW statement_timeout');
      inboxSeen.push(rows[0]!.statement_timeout);
    });
    expect(result.done).toBe(1);

    const outside = await engine.all<{ statement_timeout: string }>('SHOW statement_timeout');
    const inside = await engine.transaction((tx) =>
      tx.all<{ statement_timeout: string }>('SHOW statement_timeout'),
    );

    const expected = `${POSTGRES_POOL_DEFAULTS.statementTimeoutMs / 1000}s`;
    expect(expected).toBe('30s');
    expect(inboxSeen).toEqual([expected]);
    expect(outside.map((row) => row.statement_timeout)).toEqual([expected]);
    expect(inside.map((row) => row.statement_timeout)).toEqual([expected]);
  });
});
