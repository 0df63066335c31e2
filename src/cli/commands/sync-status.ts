// `shop-mgmt sync status`: every shop's health line from the `sync_shops` table a fleet writes, as a table
// (or one JSON object a line); `--check` exits 1 when a shop is paused, retrying, degraded, stale (its
// line not rewritten by the time its fleet promised) or has dead letters.
import { defineCommand } from 'citty';
import { withoutPassword } from '../../internal/redact.js';
import { openSyncDatabase } from '../../sync/engine/database.js';
import { readStatus, type ShopStatus, unhealthy } from '../../sync/fleet/health.js';
import { CliError, EXIT } from '../exit-codes.js';
import { type Output, printColumns } from '../output.js';
import { run } from '../run.js';

export const syncStatusCommand = defineCommand({
  meta: {
    name: 'status',
    description:
      "Each shop's sync health (state, lease, lag, calls against the cap, last error) from the database a `sync --shops` fleet writes",
  },
  args: {
    db: { type: 'string', description: 'A SQLite file or a postgres:// URL', default: './shop.db' },
    json: { type: 'boolean', description: 'One JSON object a line (each with shop and state)' },
    check: {
      type: 'boolean',
      description:
        'Exit 1 when a shop is paused, retrying, degraded, stale or has dead letters (cron, probes)',
    },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const db = await openSyncDatabase(flags.db);
      let lines: ShopStatus[];
      try {
        lines = await readStatus(db);
      } catch (error) {
        throw new CliError(
          `no fleet status in ${withoutPassword(flags.db)} (run shop-mgmt sync --shops FILE --db ... first): ${(error as Error).message}`,
          EXIT.failed,
        );
      } finally {
        await db.close();
      }
      print(output, lines);
      const bad = lines.filter(unhealthy);
      if (flags.check && bad.length > 0) {
        output.note(
          `${bad.length} of ${lines.length} shops need attention: ${bad.map((line) => `${line.shop} (${problems(line)})`).join(', ')}`,
        );
        if (bad.some((line) => line.inboxDead > 0))
          output.note(
            'dead deliveries are data the database does not have: `shop-mgmt sync dead-letters --db ...` lists them, `sync replay-dead --db ... --shop NAME --all` puts them back once their cause is fixed',
          );
        return EXIT.failed;
      }
      return EXIT.ok;
    }),
});

/** Why `--check` names a line. */
function problems(line: ShopStatus): string {
  const found: string[] = [];
  if (line.state === 'paused' || line.state === 'retrying' || line.state === 'degraded')
    found.push(line.reason ? `${line.state}: ${line.reason}` : line.state);
  if (line.stale) found.push('stale');
  if (line.inboxDead > 0)
    found.push(`${line.inboxDead} dead ${line.inboxDead === 1 ? 'delivery' : 'deliveries'}`);
  return found.join('; ');
}

const COLUMNS = [
  'SHOP',
  'STATE',
  'REASON',
  'LEASE',
  'LAST SUCCESS',
  'FEED AGE',
  'INBOX LAG',
  'CALLS/CAP',
  'LAST ERROR',
];

function print(output: Output, lines: readonly ShopStatus[]): void {
  if (output.mode.json) {
    for (const line of lines) output.record({ ...line }, '');
    return;
  }
  const rows = lines.map((line) => [
    line.shop,
    line.stale ? `${line.state} (stale)` : line.state,
    line.reason ?? '-',
    line.leaseHolder ?? '-',
    line.lastSuccessAt ?? 'never',
    line.feedAgeSeconds === null ? '-' : `${line.feedAgeSeconds}s`,
    (line.inboxPending === 0 ? '0' : `${line.inboxLagSeconds}s (${line.inboxPending})`) +
      (line.inboxDead > 0 ? `, ${line.inboxDead} dead` : ''),
    `${line.callsLastMinute}/${line.callsCap ?? '?'}`,
    line.lastError ? line.lastError.slice(0, 80) : '-',
  ]);
  printColumns(output, COLUMNS, rows);
  if (lines.length === 0) output.note('no shop in sync_shops yet');
}
