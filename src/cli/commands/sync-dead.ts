// `shop-mgmt sync dead-letters` and `sync replay-dead`: the webhook deliveries a `sync --shops` fleet could
// not apply, listed (no payload) and put back in line; the worker holding the shop applies them.
import { defineCommand } from 'citty';
import { withoutPassword } from '../../internal/redact.js';
import { openSyncDatabase, type SyncDatabase } from '../../sync/engine/database.js';
import { type FleetDeadLetter, readDeadLetters, replayDeadLetters } from '../../sync/fleet/dead-letters.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { type Output, printColumns } from '../output.js';
import { wholeNumber } from '../parse.js';
import { run } from '../run.js';

const DB = {
  type: 'string',
  description: 'A SQLite file or a postgres:// URL',
  default: './shop.db',
} as const;

export const syncDeadLettersCommand = defineCommand({
  meta: {
    name: 'dead-letters',
    description:
      'The webhook deliveries a `sync --shops` fleet failed to apply --max-attempts times (shop, event id, type, attempts, when, last error; no payload)',
  },
  args: {
    db: DB,
    shop: { type: 'string', description: 'Only this shop' },
    limit: { type: 'string', description: 'At most this many', default: '100' },
    json: { type: 'boolean', description: 'One JSON object a line' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const limit = wholeNumber(flags.limit, 'limit', 1, 100_000)!;
      const letters = await withInbox(flags.db, (db) =>
        readDeadLetters(db, { limit: limit + 1, ...(flags.shop ? { shop: flags.shop } : {}) }),
      );
      print(output, letters.slice(0, limit));
      if (letters.length > limit) output.note(`more than ${limit}: give a larger --limit, or --shop`);
      if (letters.length === 0) output.note(`no dead letter${flags.shop ? ` of shop ${flags.shop}` : ''}`);
      return EXIT.ok;
    }),
});

export const syncReplayDeadCommand = defineCommand({
  meta: {
    name: 'replay-dead',
    description:
      "Put a shop's dead letters back in line (attempts reset): the fleet holding the shop applies them on its next pass. Fix their cause first",
  },
  args: {
    db: DB,
    shop: { type: 'string', description: 'The shop (its name in the registry)' },
    event: { type: 'string', description: 'One dead letter, by event id' },
    all: { type: 'boolean', description: 'Every dead letter of the shop' },
    json: { type: 'boolean', description: 'One JSON object a line' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      if (!flags.shop) throw usageError('give --shop NAME (and --event ID or --all)');
      if (Boolean(flags.event) === Boolean(flags.all))
        throw usageError('give one of --event ID (one dead letter) or --all (every one of the shop)');
      const shop = flags.shop;
      const event = flags.event;
      const { replayed, state } = await withInbox(flags.db, async (db) => {
        const ids = await replayDeadLetters(db, event ? { shop, eventId: event } : { shop, all: true });
        return { replayed: ids, state: ids.length === 0 && event ? await stateOf(db, shop, event) : null };
      });
      if (state) throw new CliError(`${event} of shop ${shop} ${state}: nothing replayed`, EXIT.failed);
      if (replayed.length === 0) {
        output.note(`shop ${shop} has no dead letter: nothing replayed`);
        return EXIT.ok;
      }
      output.record(
        { event: 'replayed', shop, eventIds: replayed },
        `${replayed.length} dead ${replayed.length === 1 ? 'letter' : 'letters'} of shop ${shop} back in line (${replayed.join(', ')}): the worker holding the shop applies ${replayed.length === 1 ? 'it' : 'them'} on its next pass (each feed read, --interval)`,
      );
      return EXIT.ok;
    }),
});

/** Runs `work` on the database, then closes it; a database without the fleet's inbox says so. */
async function withInbox<T>(target: string, work: (db: SyncDatabase) => Promise<T>): Promise<T> {
  const db = await openSyncDatabase(target);
  try {
    return await work(db);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      `no fleet inbox in ${withoutPassword(target)} (run shop-mgmt sync --shops FILE --db ... first): ${(error as Error).message}`,
      EXIT.failed,
    );
  } finally {
    await db.close();
  }
}

/** Why an event id was not replayed. */
async function stateOf(db: SyncDatabase, shop: string, event: string): Promise<string> {
  const [row] = await db.all<{ applied_at: unknown }>(
    'SELECT "applied_at" FROM "sync_shop_inbox" WHERE "shop" = ? AND "event_id" = ?',
    [shop, event],
  );
  if (!row) return 'is not in the inbox';
  return row.applied_at === null ? "is not dead (it waits for the shop's next pass)" : 'was applied already';
}

const COLUMNS = ['SHOP', 'EVENT', 'TYPE', 'ATTEMPTS', 'DEAD SINCE', 'LAST ERROR'];

function print(output: Output, letters: readonly FleetDeadLetter[]): void {
  if (output.mode.json) {
    for (const letter of letters) output.record({ ...letter }, '');
    return;
  }
  if (letters.length === 0) return;
  const rows = letters.map((letter) => [
    letter.shop,
    letter.eventId,
    letter.type,
    String(letter.attempts),
    letter.deadAt,
    letter.lastError ? letter.lastError.replace(/\s+/g, ' ').slice(0, 120) : '-',
  ]);
  printColumns(output, COLUMNS, rows);
}
