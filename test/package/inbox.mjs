// The inbox entries as a project that installed the tarball sees them, with none of the optional drivers
// installed: shop-mgmt/inbox works on its own (memory store), and the SQLite, Postgres, Redis and D1 entries
// import without their drivers; opening a SQLite or Postgres store then says which package to install (or,
// where Node has node:sqlite, the SQLite store works on it); the D1 store asks for a D1 binding.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ShopError } from 'shop-mgmt';
import { Inbox, MemoryInboxStore } from 'shop-mgmt/inbox';
import { D1InboxStore } from 'shop-mgmt/inbox/d1';
import { PostgresInboxStore } from 'shop-mgmt/inbox/postgres';
import { RedisInboxStore } from 'shop-mgmt/inbox/redis';
import { SqliteInboxStore } from 'shop-mgmt/inbox/sqlite';

const event = {
  id: 'evt_pkg_1',
  object: 'event',
  type: 'coupon.created',
  created_at: '2026-09-24T10:00:00Z',
  data: { object: { id: 'c1' } },
};
const inbox = new Inbox(new MemoryInboxStore());
assert.equal(await inbox.add(event, 'webhook'), 'added');
assert.equal(await inbox.add(event, 'webhook'), 'duplicate');
const seen = [];
assert.deepEqual(await inbox.runOnce(async (e) => seen.push(e.id)), { done: 1, failed: 0, lost: 0 });
assert.deepEqual(seen, ['evt_pkg_1']);
assert.equal(typeof RedisInboxStore, 'function');
assert.throws(
  () => new D1InboxStore({}),
  (error) => error instanceof ShopError && /D1 database binding/.test(error.message),
);
// One error class per package: what the inbox throws is the ShopError that shop-mgmt exports.
assert.throws(
  () => new Inbox({}),
  (error) => error instanceof ShopError,
);

const dir = mkdtempSync(join(tmpdir(), 'pkg-inbox-'));
try {
  let hasNodeSqlite = true;
  try {
    await import('node:sqlite');
  } catch {
    hasNodeSqlite = false;
  }
  if (hasNodeSqlite) {
    const store = await SqliteInboxStore.open(join(dir, 'inbox.db'), { driver: 'node:sqlite' });
    const sqlite = new Inbox(store);
    assert.equal(await sqlite.add(event, 'feed'), 'added');
    await store.close();
  } else {
    await assert.rejects(SqliteInboxStore.open(join(dir, 'inbox.db')), /npm install better-sqlite3/);
  }
  await assert.rejects(PostgresInboxStore.connect('postgres://127.0.0.1:1/x'), /npm install pg/);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log('inbox entries: ok');
