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

  /** At `nowMs` (clock order), node `node` gets `requests` requests and `bytes` bytes. */
  record(nowMs: number, node: number, requests: number, bytes: number): void {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) this.closeSecond(second);
    if (this.isTouched[node] === 0) {
      this.isTouched[node] = 1;
      this.touched[this.touchedCount++] = node;
    }
    this.open[2 * node] += requests;
    this.open[2 * node + 1] += bytes;
  }

  /** The figures of `node`: the open second is folded in, so nothing may be recorded after. */
  figures(node: number): WindowPeakFigures {
    this.closeSecond(Infinity);
    const r = 2 * node;
    return {
      requests: this.totals[r],
      bytes: this.totals[r + 1],
      peakRequestsPerSecond1s: this.peak1s[r],
      peakRequestsPerSecond60s: this.peak60s[r] / WINDOW_SECONDS,
      peakBytesPerSecond1s: this.peak1s[r + 1],
      peakBytesPerSecond60s: this.peak60s[r + 1] / WINDOW_SECONDS,
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
    this.second = next;
  }
}
