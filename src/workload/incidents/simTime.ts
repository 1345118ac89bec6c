/** A simulated time for messages: 5h, 5h2m, 90s, 1m30s, 250ms. */
export function formatSimTime(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000 || !Number.isInteger(ms / 1000)) return `${ms}ms`;
  let seconds = ms / 1000;
  let text = '';
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60], ['s', 1]] as const) {
    const whole = Math.floor(seconds / size);
    if (whole > 0) text += `${whole}${unit}`;
    seconds -= whole * size;
  }
  return text;
}

/**
 * The largest index i in [low, high] with times[i] ≤ timeMs, for ascending `times` and
 * times[low] ≤ timeMs: the segment, piece or purge a moment falls in.
 */
export function lastAtOrBefore(times: Float64Array, timeMs: number, low: number, high: number): number {
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (times[middle] <= timeMs) low = middle;
    else high = middle - 1;
  }
  return low;
}
