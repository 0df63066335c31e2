// An inbox is typed by its store: a handler on a SQLite or Postgres inbox gets a defined `tx` (its writes
// commit with the done mark), one on the memory or Redis store gets `undefined`, so a partner never writes
// `tx?.` on a SQL store or reaches for a `tx` that a store without transactions cannot give.
// Checked by `npm run typecheck` (tsc over test/); the runtime half runs a handler on a real SQLite store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Inbox } from '../../src/sync/inbox/inbox.js';
import { MemoryInboxStore } from '../../src/sync/inbox/memory.js';
import type { PostgresInboxStore } from '../../src/sync/inbox/postgres.js';
import { SqliteInboxStore } from '../../src/sync/inbox/sqlite.js';
import type { InboxTransaction } from '../../src/sync/inbox/types.js';
import type { ShopEvent } from '../../src/webhooks/events.js';

declare const postgres: PostgresInboxStore;

/** Type-only uses: never called. */
function compileOnly(): void {
  new Inbox(postgres).work(async (_event, { tx }) => {
    expectTypeOf(tx).toEqualTypeOf<InboxTransaction>();
    await tx.execute('select 1');
  });
  new Inbox(new MemoryInboxStore()).work(async (_event, { tx }) => {
    expectTypeOf(tx).toEqualTypeOf<undefined>();
    // @ts-expect-error the memory store has no transaction to write through
    await tx.execute('select 1');
  });
}
void compileOnly;

describe('an inbox typed by its store', () => {
  it("hands a SQLite inbox's handler a transaction whose writes commit with the done mark", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-types-'));
    try {
      const store = await SqliteInboxStore.open(join(dir, 'inbox.db'));
      const inbox = new Inbox(store);
      const event = {
        id: 'evt_types_1',
        object: 'event',
        type: 'location.updated',
        api_version: '2026-09-24',
        created_at: '2026-11-01T00:00:00Z',
        livemode: false,
        data: { object: { object: 'location', id: 7 } },
      } as unknown as ShopEvent;
      expect(await inbox.add(event, 'webhook')).toBe('added');
      const seen: number[] = [];
      const result = await inbox.runOnce(async (_event, { tx }) => {
        await tx.execute('CREATE TABLE IF NOT EXISTS seen (id INTEGER)');
        await tx.execute('INSERT INTO seen (id) VALUES (?)', [7]);
        seen.push(...(await tx.query<{ id: number }>('SELECT id FROM seen')).map((row) => row.id));
      });
      expect(result).toEqual({ done: 1, failed: 0, lost: 0 });
      expect(seen).toEqual([7]);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
