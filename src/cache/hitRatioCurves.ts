import { StackDistanceRecorder } from './stackDistance.js';

/**
 * Every LRU cache's hit-ratio curve from one run (issue 25 item 2, docs/curves.md): each
 * node's byte stack distances, counted for the measured requests' lookups in a histogram on
 * a log grid of capacities, so that the hit ratio at a grid capacity C is the share of
 * lookups whose distance is ≤ C.
 */

/** Grid capacities per decade: one step is a factor 10^(1/64) ≈ 1.037, so a size is read within 4 %. */
export const CURVE_STEPS_PER_DECADE = 64;
/** The grid's first capacity, bytes (distances up to it share bucket 0). */
export const CURVE_GRID_BASE_BYTES = 1000;
/** 1 KB … 10 PB. */
const GRID_DECADES = 13;
/** Grid capacities; bucket b counts distances in (grid[b − 1], grid[b]]. */
export const CURVE_GRID_BYTES: Float64Array = (() => {
  const grid = new Float64Array(GRID_DECADES * CURVE_STEPS_PER_DECADE + 1);
  for (let b = 0; b < grid.length; b++) grid[b] = Math.round(CURVE_GRID_BASE_BYTES * 10 ** (b / CURVE_STEPS_PER_DECADE));
  return grid;
})();
/** Buckets: one per grid capacity, then one for distances beyond the grid and first references (infinite). */
export const CURVE_BUCKETS = CURVE_GRID_BYTES.length + 1;
const BEYOND = CURVE_GRID_BYTES.length;

/** The bucket of a byte stack distance: the first grid capacity at least `distance`, or BEYOND. */
export function curveBucketOf(distance: number): number {
  const grid = CURVE_GRID_BYTES;
  if (!(distance <= grid[BEYOND - 1])) return BEYOND;
  if (distance <= grid[0]) return 0;
  let b = Math.ceil(CURVE_STEPS_PER_DECADE * Math.log10(distance / CURVE_GRID_BASE_BYTES));
  // The logarithm may land one step off next to a (rounded) grid capacity.
  if (b > BEYOND - 1) b = BEYOND - 1;
  while (b > 0 && distance <= grid[b - 1]) b--;
  while (distance > grid[b]) b++;
  return b;
}

/** One node's histogram: measured lookups and their bytes per distance bucket (the last: never a hit on the grid). */
export interface NodeCurveHistogram {
  requests: Float64Array;
  bytes: Float64Array;
  /** The largest object the node was asked to store: below it the LRU refuses objects and the curve is not exact (docs/curves.md). */
  largestBytes: number;
}

/**
 * One layer's curves: a recorder per node (the recency state, built through the whole run,
 * cache-only warm-up included) and the histogram of measured lookups. The node's lookup hands
 * its key here (`lastNode`); the flow then counts its distance when the lookup is a measured
 * request's (`countLast`), right after, with no allocation.
 */
export class CurveLayer {
  readonly recorders: StackDistanceRecorder[];
  /** [node × CURVE_BUCKETS + bucket] × 2: lookups, bytes. */
  private readonly counts: Float64Array;
  private lastNode = 0;

  constructor(
    readonly layer: string,
    readonly nodeCount: number,
  ) {
    this.recorders = Array.from({ length: nodeCount }, () => new StackDistanceRecorder());
    this.counts = new Float64Array(nodeCount * CURVE_BUCKETS * 2);
  }

  /** Node `node` looks `key` up (every lookup, measured or not: the recency state); `hit`: the node holds it (and moves it up). */
  reference(node: number, key: number, hit: boolean): void {
    this.lastNode = node;
    this.recorders[node].reference(key, hit);
  }

  /** Node `node`'s recorder starts from this recency stack (most recent first): a stationary start (StackDistanceRecorder.seed). */
  seed(node: number, keys: Int32Array, sizes: Float64Array, count: number): void {
    this.recorders[node].seed(keys, sizes, count);
  }

  /** Node `node` stores `bytes` for `key`. */
  stored(node: number, key: number, bytes: number): void {
    this.recorders[node].stored(key, bytes);
  }

  /** The lookup just referenced was a measured request's, for `bytes`: its distance is summed and counted. */
  countLast(bytes: number): void {
    const bucket = curveBucketOf(this.recorders[this.lastNode].lastDistance());
    const at = (this.lastNode * CURVE_BUCKETS + bucket) * 2;
    this.counts[at]++;
    this.counts[at + 1] += bytes;
  }

  histogram(node: number): NodeCurveHistogram {
    const requests = new Float64Array(CURVE_BUCKETS);
    const bytes = new Float64Array(CURVE_BUCKETS);
    const from = node * CURVE_BUCKETS * 2;
    for (let b = 0; b < CURVE_BUCKETS; b++) {
      requests[b] = this.counts[from + 2 * b];
      bytes[b] = this.counts[from + 2 * b + 1];
    }
    return { requests, bytes, largestBytes: this.recorders[node].largestBytes };
  }
}

/** The layer's aggregate: every node at the same capacity (sums of the nodes' histograms). */
export function aggregateHistogram(histograms: readonly NodeCurveHistogram[]): NodeCurveHistogram {
  const requests = new Float64Array(CURVE_BUCKETS);
  const bytes = new Float64Array(CURVE_BUCKETS);
  let largestBytes = 0;
  for (const histogram of histograms) {
    for (let b = 0; b < CURVE_BUCKETS; b++) {
      requests[b] += histogram.requests[b];
      bytes[b] += histogram.bytes[b];
    }
    if (histogram.largestBytes > largestBytes) largestBytes = histogram.largestBytes;
  }
  return { requests, bytes, largestBytes };
}

export interface CurvePoint {
  capacityBytes: number;
  hitRatio: number;
  byteHitRatio: number;
}

/**
 * The node's curve on the grid, from the first grid capacity that holds its largest object
 * (below, the LRU refuses objects and is no stack algorithm: docs/curves.md) to the first at
 * which every finite distance is a hit (the curve is flat after). Empty without lookups.
 */
export function curvePoints(histogram: NodeCurveHistogram): CurvePoint[] {
  let lookups = 0;
  let lookupBytes = 0;
  let last = -1;
  for (let b = 0; b < CURVE_BUCKETS; b++) {
    lookups += histogram.requests[b];
    lookupBytes += histogram.bytes[b];
    if (b < BEYOND && histogram.requests[b] > 0) last = b;
  }
  if (lookups === 0) return [];
  const first = Math.min(curveBucketOf(histogram.largestBytes), BEYOND - 1);
  const points: CurvePoint[] = [];
  let hits = 0;
  let hitBytes = 0;
  for (let b = 0; b <= Math.max(first, last); b++) {
    hits += histogram.requests[b];
    hitBytes += histogram.bytes[b];
    if (b >= first) points.push({ capacityBytes: CURVE_GRID_BYTES[b], hitRatio: hits / lookups, byteHitRatio: lookupBytes === 0 ? 0 : hitBytes / lookupBytes });
  }
  return points;
}

export type CurveMeasure = 'requests' | 'bytes';

/** What `capacityFor` answers: the smallest grid capacity meeting the target, or the most any capacity gives. */
export type CapacityAnswer = { reached: true; capacityBytes: number; hitRatio: number } | { reached: false; maxHitRatio: number };

/**
 * The smallest grid capacity (at least the node's largest object) at which the node's hit
 * ratio (by requests or by bytes) reaches `target` (for `cdnsim plan`, issue 25 item 3);
 * when no capacity does, the hit ratio of an unbounded cache (first references and distances
 * beyond the grid never hit).
 */
export function capacityFor(histogram: NodeCurveHistogram, target: number, measure: CurveMeasure = 'requests'): CapacityAnswer {
  const counts = measure === 'requests' ? histogram.requests : histogram.bytes;
  let total = 0;
  for (let b = 0; b < CURVE_BUCKETS; b++) total += counts[b];
  if (total === 0) return { reached: false, maxHitRatio: 0 };
  const first = Math.min(curveBucketOf(histogram.largestBytes), BEYOND - 1);
  let hits = 0;
  for (let b = 0; b < BEYOND; b++) {
    hits += counts[b];
    if (b >= first && hits / total >= target) return { reached: true, capacityBytes: CURVE_GRID_BYTES[b], hitRatio: hits / total };
  }
  return { reached: false, maxHitRatio: hits / total };
}

/** One node's curve as the run reports it. */
export interface NodeCurve {
  layer: string;
  node: string;
  histogram: NodeCurveHistogram;
}

/** The layer's aggregate's name in curves.csv (no PoP or regional site is named so). */
export const LAYER_AGGREGATE_NODE = 'all';

export const CURVES_COLUMNS = ['layer', 'node', 'capacityBytes', 'hitRatio', 'byteHitRatio'] as const;
