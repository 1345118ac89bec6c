/**
 * Peaks of a load per node over whole seconds of the run's clock: the most requests and the
 * most bytes in one second, and the highest mean over 60 consecutive seconds (sliding by one),
 * with the totals they come from (docs/capacity.md). The same windows as PopCapacity's, for
 * two quantities: the origin's requests and body bytes, a regional site's fetches from its
 * PoPs and bodies sent to them.
 *
 * Fed in clock order (the flow's events), so one second is open at a time and is folded into
 * the peaks when the clock leaves it. Memory: a few numbers per node and a 60-slot ring per
 * node and quantity, whatever the run's length; per record, typed-array updates only.
 */

export interface WindowPeakFigures {
  /** Everything recorded: requests and bytes. */
  requests: number;
  bytes: number;
  /** Most requests in one second, and the highest mean requests per second over 60 s. */
  peakRequestsPerSecond1s: number;
  peakRequestsPerSecond60s: number;
  /** Most bytes in one second, and the highest mean bytes per second over 60 s. */
  peakBytesPerSecond1s: number;
  peakBytesPerSecond60s: number;
}

const WINDOW_SECONDS = 60;

export class WindowPeaks {
  private second = -Infinity;
  /** Where second 0 starts: the measured time's start (startMeasuring), so the windows are the seconds the means are over. */
  private originMs = 0;
  /** Seconds from the start up to the last one recorded in: the measured work may run past the run's end (fetches the last requests started). */
  secondsRecorded = 0;
  private touchedCount = 0;
  private readonly touched: Int32Array;
  private readonly isTouched: Uint8Array;
  /** The open second's count per node: requests at 2·node, bytes at 2·node + 1 (the same layout below). */
  private readonly open: Float64Array;
  private readonly totals: Float64Array;
  private readonly peak1s: Float64Array;
  private readonly peak60s: Float64Array;
  /** Per node and quantity: the last 60 seconds (slot = second mod 60) and their sum; per node, the last second written. */
  private readonly ring: Float64Array;
  private readonly window: Float64Array;
  private readonly ringSecond: Float64Array;

  constructor(readonly nodes: number) {
    this.touched = new Int32Array(nodes);
    this.isTouched = new Uint8Array(nodes);
    this.open = new Float64Array(2 * nodes);
    this.totals = new Float64Array(2 * nodes);
    this.peak1s = new Float64Array(2 * nodes);
    this.peak60s = new Float64Array(2 * nodes);
    this.ring = new Float64Array(2 * nodes * WINDOW_SECONDS);
    this.window = new Float64Array(2 * nodes);
    this.ringSecond = new Float64Array(nodes).fill(-Infinity);
  }

  /** Counts whole seconds from `startMs` (the measured time's start) on; called before anything is recorded. */
  startMeasuring(startMs: number): void {
    this.originMs = startMs;
  }

  /** At `nowMs` (clock order, not before startMeasuring's time), node `node` gets `requests` requests and `bytes` bytes. */
  record(nowMs: number, node: number, requests: number, bytes: number): void {
    const second = Math.floor((nowMs - this.originMs) / 1000);
    if (second !== this.second) this.closeSecond(second);
    if (this.isTouched[node] === 0) {
      this.isTouched[node] = 1;
      this.touched[this.touchedCount++] = node;
    }
    this.open[2 * node] += requests;
    this.open[2 * node + 1] += bytes;
  }

  /**
   * The figures of `node` over `measuredSeconds` whole seconds (measuredWholeSeconds): the open
   * second is folded in, so nothing may be recorded after. The 60 s peak is never below the
   * mean over the measured time: a measured time shorter than 60 s is one window, its mean; and
   * a longer one whose load sits at both ends (e.g. one origin request in its first second and
   * one in its last of 90) has a busiest minute quieter than its average, which would make
   * mean > peak (docs/capacity.md).
   */
  figures(node: number, measuredSeconds: number): WindowPeakFigures {
    this.closeSecond(Infinity);
    const r = 2 * node;
    const mean = (q: number): number => (measuredSeconds > 0 ? this.totals[q] / measuredSeconds : 0);
    return {
      requests: this.totals[r],
      bytes: this.totals[r + 1],
      peakRequestsPerSecond1s: this.peak1s[r],
      peakRequestsPerSecond60s: Math.max(this.peak60s[r] / WINDOW_SECONDS, mean(r)),
      peakBytesPerSecond1s: this.peak1s[r + 1],
      peakBytesPerSecond60s: Math.max(this.peak60s[r + 1] / WINDOW_SECONDS, mean(r + 1)),
    };
  }


  /** Folds the open second into each touched node's totals, peaks and 60 s windows, then opens `next`. */
  private closeSecond(next: number): void {
    const { touched, isTouched, open, ring, window, ringSecond, totals, peak1s, peak60s } = this;
    const second = this.second;
    for (let i = 0; i < this.touchedCount; i++) {
      const node = touched[i];
      // Seconds the node was quiet since its last write leave its windows (at most 60 slots to clear).
      const from = Math.max(ringSecond[node] + 1, second - WINDOW_SECONDS + 1, 0);
      for (let q = 2 * node; q <= 2 * node + 1; q++) {
        const base = q * WINDOW_SECONDS;
        for (let s = from; s < second; s++) {
          const slot = base + (s % WINDOW_SECONDS);
          window[q] -= ring[slot];
          ring[slot] = 0;
        }
        const value = open[q];
        const slot = base + (second % WINDOW_SECONDS);
        window[q] += value - ring[slot];
        ring[slot] = value;
        totals[q] += value;
        if (value > peak1s[q]) peak1s[q] = value;
        if (window[q] > peak60s[q]) peak60s[q] = window[q];
        open[q] = 0;
      }
      ringSecond[node] = second;
      isTouched[node] = 0;
    }
    this.touchedCount = 0;
    if (next !== Infinity) this.secondsRecorded = next + 1;
    this.second = next;
  }
}

/**
 * The whole seconds, counted from the measured time's start, that the measured time touches
 * (from `startMs` to `endMs`, the run's end or the last measured work's if later): the 1 s windows the peaks are over, and so the
 * seconds a mean is over. A mean over them is at most the busiest one's count by construction;
 * over the fractional span it could exceed it (3 origin requests in 0.99 s: 3.03/s mean, yet at
 * most 2 in any 1 s window the span straddles). At least 1.
 */
export function measuredWholeSeconds(startMs: number, endMs: number): number {
  return Math.max(1, Math.floor((endMs - startMs) / 1000) + 1);
}
