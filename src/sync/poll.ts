import { ShopError } from '../core/errors/shop-error.js';

/** How a poll runs; see `EventCatchUp.start` and `InventoryMirror.startReconciling`. */
export interface PollOptions {
  /** ms from one run's end to the next's start. */
  intervalMs?: number;
  /** Told of a failed run; polling goes on. @default console.error */
  onError?: (error: unknown) => void | Promise<void>;
}

/** A running poll. */
export interface Poller {
  /** Stops polling; resolves once a run in progress finished. */
  stop(): Promise<void>;
}

/** Runs `run` now, then `intervalMs` after each run ends; no failure becomes an unhandled rejection. */
export function poll(
  run: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void | Promise<void>,
): Poller {
  if (!Number.isFinite(intervalMs) || intervalMs < 0) {
    throw new ShopError(`intervalMs must be a number of milliseconds, 0 or more, got ${intervalMs}.`);
  }
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> = Promise.resolve();
  const report = async (error: unknown): Promise<void> => {
    try {
      await onError(error);
    } catch (failure) {
      console.error('shop-mgmt: the onError of a poll threw', failure);
    }
  };
  const tick = () => {
    current = Promise.resolve()
      .then(run)
      .then(() => undefined, report)
      .then(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
