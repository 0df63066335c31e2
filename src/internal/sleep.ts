import { MAX_TIMER_MS } from './limits.js';

/**
 * Waits `ms` milliseconds (at most the longest delay a timer holds); rejects with the signal's own reason as soon as `signal` aborts, so a caller who
 * cancels never waits out a back-off.
 */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
