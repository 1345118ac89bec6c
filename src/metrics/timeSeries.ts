import { LatencyHistogram } from './latencyHistogram.js';

/**
 * The measured part of a run cut into intervals of simulated time (scenario key
 * `metrics.interval`, default 60 s): per interval, the request rate, the hit ratio of each
 * layer, the origin's load, time-to-first-byte percentiles, stale serves and errors.
 *
 * A request counts in the interval in which the CDN finished it (the simulated clock when
 * the flow hands it to the sink: for a browser or edge hit the moment it was asked, for a
 * miss when its response was back at the PoP). The sink is called in clock order, so one
 * interval is open at a time; it is closed into a row when the clock passes its end. The
 * last row runs on to the last request back, taking the requests in flight at the run's end. The
 * percentiles are those of the run's own time-to-first-byte histogram over the interval
 * (its counts now less a copy taken when the interval opened), so a request costs no
 * second histogram update. Memory: that copy and a few counters, reused, plus one row per
 * interval: constant in the number of requests.
 */

/** One interval: the columns of timeseries.csv. `null`: not applicable (a layer the run has not, or no request to take a ratio or percentile of). */
export interface TimeSeriesRow {
  /** Simulated seconds since the start of the run, warm-up included in the clock. */
  startSeconds: number;
  endSeconds: number;
  requests: number;
  requestsPerSecond: number;
  browserHitRatio: number | null;
  edgeHitRatio: number | null;
  regionalHitRatio: number | null;
  cdnHitRatio: number | null;
  originRequestsPerSecond: number;
  originGbitPerSecond: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  staleServed: number;
  errorsServed: number;
}

/** The flow's layer indices as the sink sees them (−1: the run has no such layer); the run's RunLayers (src/cdn/runLayers.ts) is one. */
export interface SeriesLayers {
  readonly browser: number;
  readonly edge: number;
  readonly regional: number;
  readonly origin: number;
}

/** The origin's running totals (the flow's counters of the measured part): read at each interval's end, so they cost nothing per request. */
export interface OriginTotals {
  readonly requests: number;
  readonly bytes: number;
}

export class TimeSeries {
  readonly rows: TimeSeriesRow[] = [];
  private readonly served: Float64Array;
  /** The run's histogram's counts when the open interval began. */
  private readonly latencyBefore = LatencyHistogram.emptyCounts();
  private stale = 0;
  private errors = 0;
  private startMs = -1;
  private endMs = Infinity;
  private originRequestsAtStart = 0;
  private originBytesAtStart = 0;

  /**
   * @param latency the run's histogram of every measured request's time to first byte: a
   *   request must be recorded there after `record` has seen it (so that an interval `record`
   *   closes does not hold it).
   * @param staleBits the flow's outcome bits that mean "served a stale copy" (spec 4.7).
   */
  constructor(
    readonly intervalMs: number,
    private readonly layers: SeriesLayers,
    private readonly origin: OriginTotals,
    private readonly latency: LatencyHistogram,
    private readonly staleBits: number,
  ) {
    if (!(intervalMs > 0)) throw new Error(`time series: expected an interval > 0 ms, got ${intervalMs}`);
    this.served = new Float64Array(layers.origin + 1);
  }

  /** The measured part begins (the first measured request is sent): the first interval starts here. */
  start(nowMs: number): void {
    this.openAt(nowMs);
  }

  get started(): boolean {
    return this.startMs >= 0;
  }

  /** A measured request, finished at `nowMs` on the simulated clock (never earlier than the one before). */
  record(nowMs: number, layer: number, status: number, outcome: number): void {
    if (nowMs >= this.endMs) this.closeUntil(nowMs);
    this.served[layer]++;
    if (status >= 400) this.errors++;
    if ((outcome & this.staleBits) !== 0) this.stale++;
  }

  /**
   * The run stops taking requests at `runEndMs`: the intervals before it are closed, and the
   * open one stays open for the requests still in flight (a row of those alone would be a
   * few slow misses, not the traffic).
   */
  endRun(runEndMs: number): void {
    if (!this.started) return;
    while (runEndMs > this.endMs) this.closeUntil(this.endMs);
    this.endMs = Infinity;
  }

  /** The last request is back at `endMs`: the open interval becomes the last row, as long as it lasted. */
  finish(endMs: number): void {
    if (!this.started) return;
    this.closeUntil(endMs);
    if (endMs > this.startMs || this.requestsOpen() > 0) this.close(Math.max(endMs, this.startMs));
    this.startMs = -1;
    this.endMs = Infinity;
  }

  private openAt(startMs: number): void {
    this.startMs = startMs;
    this.endMs = startMs + this.intervalMs;
    this.originRequestsAtStart = this.origin.requests;
    this.originBytesAtStart = this.origin.bytes;
    this.latency.copyCounts(this.latencyBefore);
  }

  /** Closes every interval that ends at or before `nowMs`, quiet ones included (a row of zeros). */
  private closeUntil(nowMs: number): void {
    while (nowMs >= this.endMs) {
      const end = this.endMs;
      this.close(end);
      this.openAt(end);
    }
  }

  private requestsOpen(): number {
    let requests = 0;
    for (let layer = 0; layer < this.served.length; layer++) requests += this.served[layer];
    return requests;
  }

  private close(endMs: number): void {
    const { served, layers } = this;
    const requests = this.requestsOpen();
    const seconds = (endMs - this.startMs) / 1000;
    const perSecond = (count: number) => (seconds > 0 ? count / seconds : 0);
    const reaching = (layer: number) => {
      let count = 0;
      for (let k = layer; k < served.length; k++) count += served[k];
      return count;
    };
    // Hit ratios as summary.json defines them: served at a layer / reaching it; the CDN's, edge or regional / reaching the edge.
    const hitRatio = (layer: number, hits: number): number | null => {
      if (layer < 0) return null;
      const reached = reaching(layer);
      return reached === 0 ? null : hits / reached;
    };
    const empty = requests === 0;
    const cdnHits = served[layers.edge] + (layers.regional >= 0 ? served[layers.regional] : 0);
    const originBytes = this.origin.bytes - this.originBytesAtStart;
    this.rows.push({
      startSeconds: this.startMs / 1000,
      endSeconds: endMs / 1000,
      requests,
      requestsPerSecond: perSecond(requests),
      browserHitRatio: hitRatio(layers.browser, layers.browser < 0 ? 0 : served[layers.browser]),
      edgeHitRatio: hitRatio(layers.edge, served[layers.edge]),
      regionalHitRatio: hitRatio(layers.regional, layers.regional < 0 ? 0 : served[layers.regional]),
      cdnHitRatio: hitRatio(layers.edge, cdnHits),
      originRequestsPerSecond: perSecond(this.origin.requests - this.originRequestsAtStart),
      originGbitPerSecond: perSecond((originBytes * 8) / 1e9),
      p50Ms: empty ? null : this.latency.quantileSince(this.latencyBefore, 0.5),
      p95Ms: empty ? null : this.latency.quantileSince(this.latencyBefore, 0.95),
      p99Ms: empty ? null : this.latency.quantileSince(this.latencyBefore, 0.99),
      staleServed: this.stale,
      errorsServed: this.errors,
    });
    served.fill(0);
    this.stale = 0;
    this.errors = 0;
  }
}
