import type { Region } from './regions.js';

/**
 * Every number of the physical latency model, in one object with documented defaults.
 * docs/topology.md explains how the defaults were calibrated against the stated figures
 * (spec 1.1 regional averages and the 25.45 ms global average; spec 4.9 per-layer windows)
 * and which parameter moves which figure.
 *
 * A hop's round trip is 2 × great-circle distance × route inflation / speed in fibre; the
 * time to first byte of a request adds the last mile (client hop only), processing at
 * each node it passes and, at the origin, the service time.
 */
export interface LatencyParameters {
  /**
   * Speed of light in fibre, km per ms one way. Default 204 (4.9 µs/km: c divided by the
   * refractive index of silica fibre, about 1.47).
   */
  readonly fibreKmPerMs: number;
  /**
   * Path length over great-circle distance between a client and its PoP on the public
   * Internet. Default 2.0: routes follow fibre along roads and railways, through a few
   * exchange points, rarely straight (Singla et al., "The Internet at the speed of light",
   * HotNets 2014, find measured paths 2–3× longer than the geodesic at fibre speed).
   */
  readonly accessRouteInflation: number;
  /**
   * The same ratio on the CDN's own backbone (PoP → regional site → origin). Default 1.5:
   * long-haul and submarine routes between hubs are straighter than access paths, but
   * still not geodesic.
   */
  readonly backboneRouteInflation: number;
  /**
   * Median last-mile round trip of a fixed-line client per region, ms: access network,
   * home router, the ISP's aggregation up to the exchange where the PoP connects.
   * Calibrated (docs/topology.md) so that each region's mean edge latency sits at the
   * same relative position inside its stated range.
   */
  readonly lastMileMedianMs: Readonly<Record<Region, number>>;
  /** Lognormal sigma of the last mile (same for every region). Default 0.5: p90/p50 ≈ 1.9. */
  readonly lastMileSigma: number;
  /**
   * A mobile client's last-mile median is the fixed-line median times this. Default 1.6:
   * radio access and mobile core add a few to tens of ms over fixed broadband
   * (Ookla's national medians put mobile latency at 1.3–2× fixed).
   */
  readonly mobileLastMileFactor: number;
  /** Time a PoP takes to answer a hit (TLS record, cache lookup, NVMe read), ms. Default 1. */
  readonly edgeProcessingMs: number;
  /** Time a regional site takes to answer a hit, ms (bigger, disk-heavier store). Default 2. */
  readonly regionalProcessingMs: number;
  /**
   * Origin service time (application work until its first byte): lognormal median, ms.
   * Default 95, with sigma 0.35: 90 % of draws between 53 and 169 ms, mean 101 ms — the
   * bulk inside the stated origin window of 50–200 ms (spec 4.9 layer 4).
   */
  readonly originServiceMedianMs: number;
  readonly originServiceSigma: number;
}

export const DEFAULT_LATENCY_PARAMETERS: LatencyParameters = {
  fibreKmPerMs: 204,
  accessRouteInflation: 2.0,
  backboneRouteInflation: 1.5,
  lastMileMedianMs: {
    'North America': 10.4,
    Europe: 12.5,
    'Asia-Pacific': 13.6,
    'Latin America': 17.2,
    Africa: 19.2,
  },
  lastMileSigma: 0.5,
  mobileLastMileFactor: 1.6,
  edgeProcessingMs: 1,
  regionalProcessingMs: 2,
  originServiceMedianMs: 95,
  originServiceSigma: 0.35,
};

/** Round-trip propagation time over a path of `km` great-circle kilometres, ms. */
export function propagationRttMs(km: number, routeInflation: number, fibreKmPerMs: number): number {
  return (2 * km * routeInflation) / fibreKmPerMs;
}

/** Mean of a lognormal given its median and sigma: median × e^(σ²/2). */
export function lognormalMean(median: number, sigma: number): number {
  return median * Math.exp((sigma * sigma) / 2);
}

/** Expected last mile of a region's client, mobile share included, ms. */
export function expectedLastMileMs(parameters: LatencyParameters, region: Region, mobileShare: number): number {
  const fixed = lognormalMean(parameters.lastMileMedianMs[region], parameters.lastMileSigma);
  return fixed * (1 - mobileShare + mobileShare * parameters.mobileLastMileFactor);
}
