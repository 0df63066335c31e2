// The two PostgreSQL pools a partner's process holds (the sync engine's, from openSyncDatabase, and the
// inbox's, from PostgresInboxStore.connect), in a process of their own, as idle-backends.test.ts runs them
// while their backends are terminated: each pool is filled with idle connections (4 calls at once), then the
// parent terminates every backend. Messages from the parent: 'idle' (report ready with idle connections),
// 'hold' (start a transaction on each pool that is still open when the parent terminates it), 'check' (one
// call on each pool, which must connect afresh). Replies are `{ step, engine, inbox }` with 'ok' or the
// error's name. Bundled by the test with esbuild.
import { openSyncDatabase } from '../../../src/sync/engine/database.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { PostgresInboxStore } from '../../../src/sync/inbox/postgres.js';
import { buildEvent } from '../../../src/testing/factories/index.js';

const url = process.env.PG_URL!;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 'ok',
    (error: unknown) => (error instanceof Error ? error.name : typeof error),
  );

async function main(): Promise<void> {
  const engine = await openSyncDatabase(url);
  const inbox = new Inbox(await PostgresInboxStore.connect(url));
  await inbox.ready();
  const fill = async () => {
    // Four calls at once: four connections in each pool, idle once they are answered.
    await Promise.all([
      ...Array.from({ length: 4 }, () => engine.all('SELECT pg_sleep(0.05)')),
      ...Array.from({ length: 4 }, () => inbox.get('evt_none')),
    ]);
  };
  let held: Promise<[string, string]> | null = null;
  process.on('message', async (step: string) => {
    if (step === 'idle') {
      await fill();
      process.send?.({ step, engine: 'ok', inbox: 'ok' });
    } else if (step === 'hold') {
      // A transaction on each pool, open (the connection checked out) until the parent ends its backend.
      const holding = (run: (pause: () => Promise<void>) => Promise<unknown>) =>
        outcome(run(() => sleep(3000)));
      held = Promise.all([
        holding((pause) =>
          engine.transaction(async (tx) => {
            await tx.all('SELECT 1');
            await pause();
            await tx.all('SELECT 1');
          }),
        ),
        holding(async (pause) => {
          const id = `evt_hold_${Date.now()}`;
          await inbox.add(buildEvent('sale.completed', { id }));
          const [lease] = await inbox.store.lease({
            limit: 1,
            leaseMs: 60_000,
            now: Date.now(),
            ordered: false,
            worker: 'holder',
          });
          if (!lease) throw new Error('nothing to lease');
          const outcome = await inbox.store.complete(
            lease,
            async (tx) => {
              await tx!.execute('SELECT 1');
              await pause();
              await tx!.execute('SELECT 1');
            },
            Date.now(),
          );
          if (outcome !== 'done') throw new Error(`complete said ${outcome}`);
        }),
      ]);
      await sleep(500);
      process.send?.({ step, engine: 'ok', inbox: 'ok' });
    } else if (step === 'held') {
      const [engineOutcome, inboxOutcome] = await (held ?? Promise.resolve(['none', 'none']));
      process.send?.({ step, engine: engineOutcome, inbox: inboxOutcome });
    } else if (step === 'check') {
      const [engineOutcome, inboxOutcome] = await Promise.all([
        outcome(engine.all('SELECT 1')),
        outcome(inbox.get('evt_none')),
      ]);
      process.send?.({ step, engine: engineOutcome, inbox: inboxOutcome });
    }
  });
  process.send?.({ step: 'started', engine: 'ok', inbox: 'ok' });
}

void main();
