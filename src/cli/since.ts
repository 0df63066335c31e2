import type { ShopClient } from '../client.js';
import { EventCatchUp } from '../sync/catch-up.js';
import { parseDuration } from '../testing/clock.js';
import { usageError } from './exit-codes.js';
import type { ListenFileStore } from './listen-file.js';

/**
 * Where `listen` starts reading, saved as the checkpoint before anything is delivered, so a stop before the
 * first delivery (Ctrl-C, SIGTERM, a crash) resumes from there and loses nothing. An existing checkpoint wins
 * unless `--since` is given. `--since 2h` reads from two hours ago; `--since evt_...` starts just after that
 * event (found in the feed; the checkpoint is set to it, so EventCatchUp's rules pass it and what came before
 * it). With neither, only new events.
 */
export async function startingPoint(
  client: ShopClient,
  since: string | undefined,
  store: ListenFileStore,
): Promise<string | undefined> {
  if (since === undefined) {
    if (!store.load()) await fromNow(client, store);
    return undefined;
  }
  if (since.startsWith('evt_')) {
    for await (const event of client.events.list({ limit: 200 })) {
      if (event.id === since) {
        await store.save({ lastEventId: event.id, createdAt: event.created_at });
        return undefined;
      }
    }
    throw usageError(
      `--since ${since}: no such event in the feed (it keeps 30 days, and only types some endpoint subscribes)`,
    );
  }
  let ms: number;
  try {
    ms = parseDuration(since);
  } catch {
    throw usageError(
      `--since must be a duration such as 2h or 30m, or an event id evt_..., got ${JSON.stringify(since)}`,
    );
  }
  await savePosition(store, new Date(Date.now() - ms).toISOString());
  return undefined;
}

/**
 * A checkpoint at a point of the feed with no event of its own: EventCatchUp reads from that instant itself
 * (a checkpoint without `seen`) and hands on every event from it.
 */
function savePosition(store: ListenFileStore, createdAt: string): Promise<void> {
  return store.save({ lastEventId: '', createdAt });
}

/**
 * Only events from now on, whatever the shop's clock says (a sandbox's may run behind or ahead of this
 * machine's): a first run reads the feed to its end once and passes every event in it, so the checkpoint
 * stands at the newest event with every id of its overlap seen. An empty feed saves a position at its very
 * start: every event it gets from then on is new.
 */
async function fromNow(client: ShopClient, store: ListenFileStore): Promise<void> {
  const primer = new EventCatchUp({
    client,
    checkpoints: store,
    checkpointEvery: 200,
    onEvent: () => undefined,
  });
  await primer.run();
  if (!store.load()) await savePosition(store, new Date(0).toISOString());
}

/**
 * Whether the saved checkpoint belongs to the shop of `client`: its event is still in the feed (read from the
 * checkpoint's own instant). A checkpoint of another shop (another sandbox on the same URL, one whose clock
 * now runs behind it) finds nothing there and would deliver nothing. A position without an event (a --since
 * duration, an empty feed) cannot be checked and is kept.
 */
export async function checkpointIsOfThisShop(client: ShopClient, store: ListenFileStore): Promise<boolean> {
  const checkpoint = store.load();
  if (!checkpoint || checkpoint.lastEventId === '') return true;
  for await (const event of client.events.list({ updated_since: checkpoint.createdAt, limit: 200 })) {
    if (event.id === checkpoint.lastEventId) return true;
    if (event.created_at !== checkpoint.createdAt) return false;
  }
  return false;
}
