import { ShopError } from '../core/errors/shop-error.js';

/** How a poll runs; see `EventCatchUp.start` and `InventoryMirror.startReconciling`. */
export interface PollOptions {
  /** Pause between the end of one run and the start of the next, in milliseconds. */
  intervalMs?: number;
  /**
   * Told about a failed run; polling goes on. If it throws or rejects in turn, that is written to
   * `console.error` and polling still goes on. @default console.error
   */
  onError?: (error: unknown) => void | Promise<void>;
}

/** A running poll. */
export interface Poller {
  /** Stops polling; resolves (never rejects) when a run in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `run` now, then `intervalMs` after each run ends, so runs never overlap. Every failure ends in
 * `onError` or, when that fails too, in `console.error`: a poll left running in a receiver must never turn a
 * failed run into an unhandled rejection, which ends a Node process.
 */
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
