import type { RandomStream } from '../sim/random.js';

/**
 * The latency and routing seam the CDN flow uses. This first model is regional: one
 * lognormal edge latency per client region and a fixed origin latency; the topology model
 * (PoPs, great-circle distances, a regional tier) implements the same interface.
 */
export interface LatencyModel {
  /** Which edge node serves a client of this region. */
  edgeFor(region: number): number;
  readonly edgeCount: number;
  readonly edgeNames: readonly string[];
  /** Time to first byte of an edge hit for a client of this region, in ms (sampled). */
  clientToEdgeMs(region: number): number;
  /** Extra time for an edge miss: edge → origin → edge, origin service included, in ms. */
  edgeToOriginMs(edge: number): number;
}

export interface RegionLatencySpec {
  regionNames: readonly string[];
  /** Median edge-hit latency per region, in ms. */
  clientToEdgeMedianMs: readonly number[];
  /** Lognormal sigma around each median; 0 gives fixed latencies. */
  jitterSigma: number;
  originLatencyMs: number;
  /** One edge per region, or one edge shared by every region. */
  edgeSites: 'per-region' | 'single';
}

export class RegionLatencyModel implements LatencyModel {
  readonly edgeCount: number;
  readonly edgeNames: readonly string[];

  constructor(
    private readonly spec: RegionLatencySpec,
    private readonly stream: RandomStream,
  ) {
    this.edgeCount = spec.edgeSites === 'single' ? 1 : spec.regionNames.length;
    this.edgeNames = spec.edgeSites === 'single' ? ['global'] : [...spec.regionNames];
  }

  edgeFor(region: number): number {
    return this.edgeCount === 1 ? 0 : region;
  }

  clientToEdgeMs(region: number): number {
    return this.stream.lognormal(this.spec.clientToEdgeMedianMs[region], this.spec.jitterSigma);
  }

  edgeToOriginMs(_edge: number): number {
    return this.spec.originLatencyMs;
  }
}
