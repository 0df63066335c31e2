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

/** How far back EventCatchUp reads again before its checkpoint (its default overlap). */
const OVERLAP_MS = 60_000;

/**
 * Only events from now on. EventCatchUp reads its overlap again before every checkpoint and hands on what
 * it has not passed there, so a start at "now" would hand on the events of the minute before the first new
 * one. A first run over that minute with nothing to do passes them, by EventCatchUp's own rules.
 */
async function fromNow(client: ShopClient, store: ListenFileStore): Promise<void> {
  const now = new Date().toISOString();
  const primer = new EventCatchUp({
    client,
    checkpoints: store,
    since: new Date(Date.now() - OVERLAP_MS).toISOString(),
    onEvent: () => undefined,
  });
  await primer.run();
  // No event in the last minute: the position is "now" itself, saved before the first delivery.
  if (!store.load()) await savePosition(store, now);
}
