/**
 * Milliseconds on a clock that a wall-clock step (NTP, a VM resumed, an operator) never moves: for waits and
 * spacing inside one process. Values compare only with each other, never with a timestamp.
 */
export function monotonicNow(): number {
  return performance.now();
}
