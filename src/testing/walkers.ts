/** How many list walks of one shop are under way at once, counted per key and list path. */
export interface WalkerCount {
  /** Walks under way now, on the key and path that has the most. */
  readonly now: number;
  /** The most walks ever under way at once on one key and one path. */
  readonly max: number;
}

/**
 * How long a walk stays under way after a page of it was answered (wall clock, ms): its next page may come
 * that late, and after its last page, another walk of the same list within that time is a second walker.
 */
export const DEFAULT_WALK_IDLE_MS = 5_000;

interface Walk {
  /** The cursor that continues the walk (null: only its first page has been asked for). */
  expected: string | null;
  /** Its pages asked for and not yet answered. */
  inFlight: number;
  /** When its last page was answered (ms, on the counter's clock). */
  answeredAt: number;
  /** Its last page has been answered (`has_more: false`): it counts for `idleMs` more, then is gone. */
  done: boolean;
}

/** How many walks stay remembered per key and path (a cursor older than these starts a new walk). */
const REMEMBERED = 64;

/**
 * The walkers of one shop. A walk is the pages of one list by one key, chained by `cursor`; it is under way
 * from its first request until `idleMs` after its last answer (or after a page whose next page never came).
 * Two walks whose spans overlap are 2 walkers. The `idleMs` tail makes two workers' one-page walks (answered
 * within one event-loop turn) overlap when they read the same list close together.
 */
export class WalkCounter {
  readonly #walks = new Map<string, Walk[]>();
  #max = 0;

  /** `clock`: the time in ms (monotonic; a test's fake clock). */
  constructor(
    private readonly idleMs: number = DEFAULT_WALK_IDLE_MS,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /**
   * A list page is asked for: the walk it belongs to (a new one without a cursor, or for a cursor no walk
   * is waiting on). Call `answered` with the page's answer.
   */
  page(keyId: string, path: string, cursor: string | null): Walk {
    const slot = `${keyId} ${path}`;
    const nowMs = this.clock();
    // Walks ended longer than idleMs ago count no more: forgotten.
    const walks = (this.#walks.get(slot) ?? []).filter((walk) => !this.#gone(walk, nowMs));
    this.#walks.set(slot, walks);
    let walk = cursor === null ? undefined : waitingOn(walks, cursor);
    if (walk) {
      // The last page asked for again (a retry after a lost answer): the same walk, under way again.
      walk.done = false;
    } else {
      walk = { expected: cursor, inFlight: 0, answeredAt: nowMs, done: false };
      walks.push(walk);
      if (walks.length > REMEMBERED) walks.splice(0, walks.length - REMEMBERED);
    }
    walk.inFlight += 1;
    this.#max = Math.max(this.#max, this.#active(walks, nowMs));
    return walk;
  }

  /** The page's answer: `next` is its `meta.next_cursor` (null on the last page), `ok` whether it was 2xx. */
  answered(keyId: string, path: string, walk: Walk, ok: boolean, next: string | null): void {
    walk.inFlight -= 1;
    walk.answeredAt = this.clock();
    if (ok && next !== null) walk.expected = next;
    else if (ok) walk.done = true;
    else if (walk.expected === null && walk.inFlight === 0) {
      // A first page refused: no walk began (the walker asks for the first page again).
      const walks = this.#walks.get(`${keyId} ${path}`);
      const at = walks?.indexOf(walk) ?? -1;
      if (at >= 0) walks!.splice(at, 1);
    }
  }

  /** Walks under way now on the busiest key and path, and the most ever seen at once. */
  count(): WalkerCount {
    const nowMs = this.clock();
    let now = 0;
    for (const walks of this.#walks.values()) now = Math.max(now, this.#active(walks, nowMs));
    return { now, max: this.#max };
  }

  /** Forgets the highest count (the walks under way stay). */
  reset(): void {
    this.#max = this.count().now;
  }

  #active(walks: readonly Walk[], nowMs: number): number {
    return walks.filter((walk) => walk.inFlight > 0 || nowMs - walk.answeredAt <= this.idleMs).length;
  }

  #gone(walk: Walk, nowMs: number): boolean {
    return walk.done && walk.inFlight === 0 && nowMs - walk.answeredAt > this.idleMs;
  }
}

/**
 * The walk a page with `cursor` continues. A cursor is a position, so two walks at the same place wait on
 * the same one: the page goes to the one answered last and not already asking (a walker that went quiet
 * at that place is the one that stopped), else to any waiting on it.
 */
function waitingOn(walks: readonly Walk[], cursor: string): Walk | undefined {
  let best: Walk | undefined;
  for (const walk of walks) {
    if (walk.expected !== cursor) continue;
    if (!best || (best.inFlight > 0 && walk.inFlight === 0)) best = walk;
    else if ((walk.inFlight === 0) === (best.inFlight === 0) && walk.answeredAt >= best.answeredAt)
      best = walk;
  }
  return best;
}

/** `meta.next_cursor` of a list page's JSON (the meta ends the body), or null. */
export function nextCursorOf(body: string | Uint8Array): string | null {
  const tail = typeof body === 'string' ? body.slice(-400) : new TextDecoder().decode(body.subarray(-400));
  const match = /"next_cursor":"([^"]+)"/.exec(tail);
  return match ? match[1]! : null;
}
