import type { LatencyHistogram } from './latencyHistogram.js';
import { PopCapacity, type PopCapacityFigures, type StoredBytes } from './popCapacity.js';
import { TimeSeries, type OriginTotals, type SeriesLayers, type TimeSeriesRow } from './timeSeries.js';

/**
 * What the run records on its clock, beside the totals: the time series (timeseries.csv)
 * and each edge cache's capacity figures (pops.csv). Fed by the run's request sink with the
 * measured requests, in clock order.
 */

/** The fields of a finished request it reads (the flow's CompletedRequest has them). */
export interface FinishedRequest {
  readonly layer: number;
  /** The PoP that answered; −1 for a browser hit. */
  readonly edge: number;
  readonly sizeBytes: number;
  readonly status: number;
  readonly outcome: number;
}

export interface RunTimelineOptions {
  intervalMs: number;
  layers: SeriesLayers;
  origin: OriginTotals;
  /** The run's histogram of every measured request's time to first byte (RequestMetrics.all), recorded after `record`. */
  latency: LatencyHistogram;
  staleBits: number;
  /** One per edge cache, in the flow's edge order. */
  edgeStores: readonly StoredBytes[];
}

export interface TimelineFigures {
  intervalMs: number;
  rows: TimeSeriesRow[];
  /** Per edge cache, in the flow's edge order. */
  edges: PopCapacityFigures[];
}

export class RunTimeline {
  private readonly series: TimeSeries;
  private readonly capacity: PopCapacity;
  private readonly edgeLayer: number;

  constructor(private readonly options: RunTimelineOptions) {
    this.series = new TimeSeries(options.intervalMs, options.layers, options.origin, options.latency, options.staleBits);
    this.capacity = new PopCapacity(options.edgeStores);
    this.edgeLayer = options.layers.edge;
  }

  /** The first measured request is sent at `nowMs`. */
  start(nowMs: number): void {
    this.series.start(nowMs);
    this.capacity.start();
  }

  record(nowMs: number, done: FinishedRequest): void {
    this.series.record(nowMs, done.layer, done.status, done.outcome);
    if (done.layer >= this.edgeLayer) this.capacity.record(nowMs, done.edge, done.sizeBytes, done.status);
  }

  /** The run takes no more requests after `runEndMs`; those in flight still come back. */
  endRun(runEndMs: number): void {
    this.series.endRun(runEndMs);
  }

  /** The last request is back at `endMs`. */
  finish(endMs: number): TimelineFigures {
    this.series.finish(endMs);
    this.capacity.finish();
    return {
      intervalMs: this.options.intervalMs,
      rows: this.series.rows,
      edges: this.options.edgeStores.map((_, pop) => this.capacity.figures(pop)),
    };
  }
}
