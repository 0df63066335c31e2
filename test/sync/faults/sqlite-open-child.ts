// Opens a SQLite database the way the inbox and the sync engine do and prints what each said, as JSON: run by
// sqlite-open.test.ts in a process whose module hooks make better-sqlite3 and node:sqlite fail to load.
import { openSyncDatabase } from '../../../src/sync/engine/database.js';
import { SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';

const file = process.argv[2]!;
const outcome = async (open: () => Promise<unknown>) =>
  open().then(
    () => ({ opened: true }),
    (error: Error & { reason?: string }) => ({
      name: error.name,
      reason: error.reason,
      message: error.message,
    }),
  );
const inbox = await outcome(() => SqliteInboxStore.open(file));
const engine = await outcome(() => openSyncDatabase(file));
process.stdout.write(`${JSON.stringify({ inbox, engine })}\n`);
