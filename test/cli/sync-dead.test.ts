// `shop-mgmt sync --shops` dead letters end to end, each command its own process, two `shop-mgmt sandbox`
// processes as the shops, on SQLite and the test setup's Postgres: a delivery the database refuses goes dead
// in the running fleet (--max-attempts 2); `sync status --check` exits 1 naming the shop and the count
// (table and --json); `sync dead-letters` lists it without its payload; the cause removed, `sync
// replay-dead` puts it back in line and the running fleet applies it on its next pass; --check exits 0.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSyncDatabase, type SyncDatabase } from '../../src/sync/engine/database.js';
import { buildEvent } from '../../src/testing/factories/index.js';
import { signPayload } from '../../src/webhooks/sign.js';
import { postgresDatabase, postgresUrl } from '../sync/engine/support.js';
import { cliSuite, startSandbox } from './helpers.js';

const suite = cliSuite('sync-dead');
const SECRET = 'whsec_deadletters_cli_secret';
const BAD = 999_555;

describe.each([
  { name: 'sqlite', available: true },
  { name: 'postgres', available: Boolean(postgresUrl) },
] as const)('sync dead-letters and replay-dead ($name)', ({ name, available }) => {
  it.runIf(available)(
    'a dead delivery fails --check; listed, replayed after its fix, applied by the running fleet',
    async () => {
      const one = await startSandbox(suite.cli, ['--seed', '5']);
      const two = await startSandbox(suite.cli, ['--seed', '6']);
      const registry = join(suite.scratch(), `dead-${name}.json`);
      writeFileSync(
        registry,
        JSON.stringify({
          shops: [
            { name: 'west', apiKey: one.key, baseUrl: one.url, webhookSecrets: [SECRET] },
            { name: 'east', apiKey: two.key, baseUrl: two.url, webhookSecrets: [SECRET] },
          ],
        }),
        { mode: 0o600 },
      );
      const made = name === 'postgres' ? await postgresDatabase() : null;
      const target = made ? made.url : join(suite.scratch(), 'dead.db');
      const sync = suite.cli.start([
        'sync',
        '--shops',
        registry,
        '--db',
        target,
        '--listen',
        '0',
        '--interval',
        '1',
        '--max-attempts',
        '2',
        '--json',
      ]);
      let db: SyncDatabase | null = null;
      try {
        const listening = await sync.until(
          () => sync.records().find((record) => record.event === 'listening'),
          30_000,
        );
        await sync.until(() => {
          const current = new Set(
            sync
              .records()
              .filter((record) => record.event === 'shop' && record.state === 'current')
              .map((record) => record.shop),
          );
          return current.has('west') && current.has('east');
        }, 90_000);
        db = await openSyncDatabase(target);
        // The cause: the database refuses customer 999555 of this event (see test/sync/fleet/replay.test.ts).
        await db.run(
          name === 'sqlite'
            ? `CREATE TRIGGER "refuse_bad" BEFORE UPDATE ON "sync_shop_inbox" WHEN NEW."event_id" = 'evt_dead_cli' AND NEW."applied_at" IS NOT NULL
             BEGIN SELECT RAISE(ABORT, 'customer ${BAD} refused'); END`
            : `CREATE FUNCTION "refuse_bad"() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF NEW."id" = ${BAD} THEN RAISE EXCEPTION 'customer ${BAD} refused'; END IF; RETURN NEW; END $$`,
        );
        if (name === 'postgres') {
          await db.run(
            'CREATE TRIGGER "refuse_bad" BEFORE INSERT ON "customer" FOR EACH ROW EXECUTE FUNCTION "refuse_bad"()',
          );
        }
        const body = JSON.stringify(
          buildEvent('customer.updated', {
            id: 'evt_dead_cli',
            overrides: { id: BAD, email: 'secret-payload@example.com' },
          }),
        );
        const answer = await fetch(`${listening.url}/webhooks/west`, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'service-signature': await signPayload({
              body,
              secret: SECRET,
              timestamp: Math.floor(Date.now() / 1000),
            }),
          },
        });
        expect(answer.status).toBe(200);
        const told = await sync.until(
          () => sync.stderr.find((line) => line.includes('evt_dead_cli') && line.includes('is dead')),
          90_000,
        );
        expect(told).toMatch(/^west: event evt_dead_cli \(customer.updated\) of shop west failed 2 times/);

        const check = await suite.cli.run(['sync', 'status', '--db', target, '--check']);
        expect(check.code).toBe(1);
        expect(check.stderr.join('\n')).toContain('1 of 2 shops need attention: west (1 dead delivery)');
        expect(check.stdout.find((line) => line.startsWith('west'))).toContain('1 dead');
        const checkJson = await suite.cli.run(['sync', 'status', '--db', target, '--check', '--json']);
        expect(checkJson.code).toBe(1);
        expect(checkJson.records().map((line) => [line.shop, line.inboxDead])).toEqual([
          ['east', 0],
          ['west', 1],
        ]);
        expect(checkJson.stderr.join('\n')).toContain('west (1 dead delivery)');

        const table = await suite.cli.run(['sync', 'dead-letters', '--db', target]);
        expect(table.code).toBe(0);
        expect(table.stdout[0]).toMatch(/^SHOP\s+EVENT\s+TYPE\s+ATTEMPTS\s+DEAD SINCE\s+LAST ERROR$/);
        expect(table.stdout[1]).toMatch(/^west\s+evt_dead_cli\s+customer\.updated\s+2\s+\d{4}-.*refused/);
        const listed = await suite.cli.run(['sync', 'dead-letters', '--db', target, '--json']);
        expect(listed.code).toBe(0);
        expect(listed.records().map((letter) => [letter.shop, letter.eventId, letter.type])).toEqual([
          ['west', 'evt_dead_cli', 'customer.updated'],
        ]);
        const none = await suite.cli.run([
          'sync',
          'dead-letters',
          '--db',
          target,
          '--shop',
          'east',
          '--json',
        ]);
        expect(none.code).toBe(0);
        expect(none.records()).toEqual([]);
        for (const output of [table, listed]) {
          const text = [...output.stdout, ...output.stderr].join('\n');
          expect(text).not.toContain('secret-payload');
          expect(text).not.toContain(one.key);
        }

        // Wrong uses: neither --event nor --all (2); an id that is not dead (1).
        const replayDead = (...flags: string[]) =>
          suite.cli.run(['sync', 'replay-dead', '--db', target, '--shop', 'west', ...flags]);
        expect((await replayDead()).code).toBe(2);
        const unknown = await replayDead('--event', 'evt_nope');
        expect(unknown.code).toBe(1);
        expect(unknown.stderr.join('\n')).toContain('evt_nope of shop west is not in the inbox');

        // The cause removed, the replay puts it back; the running fleet applies it on its next pass.
        await db.run(
          name === 'sqlite' ? 'DROP TRIGGER "refuse_bad"' : 'DROP TRIGGER "refuse_bad" ON "customer"',
        );
        const replay = await replayDead('--event', 'evt_dead_cli', '--json');
        expect(replay.code, replay.stderr.join('\n')).toBe(0);
        expect(replay.records()).toEqual([{ event: 'replayed', shop: 'west', eventIds: ['evt_dead_cli'] }]);
        const database = db;
        await until(async () => {
          const rows = await database.all('SELECT "id" FROM "customer" WHERE "shop" = ? AND "id" = ?', [
            'west',
            BAD,
          ]);
          return rows.length === 1;
        });
        const healthy = await suite.cli.run(['sync', 'status', '--db', target, '--check']);
        expect(healthy.code, healthy.stderr.join('\n')).toBe(0);
        const empty = await suite.cli.run(['sync', 'dead-letters', '--db', target]);
        expect(empty.stderr.join('\n')).toContain('no dead letter');
        expect(await sync.stop('SIGTERM')).toBe(0);
      } finally {
        await db?.close();
        await sync.stop('SIGKILL');
        await made?.cleanup();
      }
    },
    240_000,
  );
});

describe('sync without --shops', () => {
  it('refuses the fleet-only flags without --shops', async () => {
    const refused = await suite.cli.run([
      'sync',
      '--db',
      join(suite.scratch(), 'none.db'),
      '--once',
      '--max-attempts',
      '3',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.join('\n')).toContain('--max-attempts is for the shops of a registry');
  });
});

/** Waits (every 100 ms) until `check` holds; the test's own timeout bounds it. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}
