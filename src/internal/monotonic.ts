/** Milliseconds on a clock no wall-clock step moves, for waits inside one process; never a timestamp. */
export function monotonicNow(): number {
  return performance.now();
}
