/** ms on a clock no wall-clock step moves; never a timestamp. */
export function monotonicNow(): number {
  return performance.now();
}
