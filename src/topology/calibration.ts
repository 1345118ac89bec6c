import { lognormalMean } from './latencyParameters.js';
import { summariseLatency } from './latencySummary.js';
import { REGIONS, STATED_REGION_LATENCY_MS, type Region } from './regions.js';
import type { Topology } from './topology.js';

/**
 * How the last-mile defaults were chosen (docs/topology.md, "Calibration"). Everything
 * else in the model is physics or a published figure; the five last-mile medians are the
 * free parameters, fitted so that:
 *
 * 1. every region's mean edge hit sits at the same relative position δ inside its stated
 *    range (spec 1.1), and
 * 2. the demand-weighted global mean comes out at CALIBRATION_TARGET_GLOBAL_MS.
 *
 * The same routine recomputes the medians for another topology, but a capacity study
 * should not: the point of moving PoPs is to see the latency move.
 */

/**
 * The global mean the calibration aims for. The spec states 25.45 ms as the global average
 * (1.1) and 5–25 ms for the edge layer (4.9): as one quantity they cannot both hold, so the
 * target is the value nearest 25.45 that leaves the mean edge hit inside the edge window
 * with a little margin.
 */
export const CALIBRATION_TARGET_GLOBAL_MS = 24.8;

/** The δ in [0, 1] that makes Σ share × (low + δ (high − low)) equal the target. */
export function rangePosition(shares: Readonly<Record<Region, number>>, targetMs: number): number {
  let lows = 0;
  let widths = 0;
  for (const region of REGIONS) {
    const [low, high] = STATED_REGION_LATENCY_MS[region];
    lows += shares[region] * low;
    widths += shares[region] * (high - low);
  }
  return (targetMs - lows) / widths;
}

/** Each region's target mean edge hit: low + δ (high − low). */
export function regionTargetsMs(position: number): Record<Region, number> {
  return Object.fromEntries(
    REGIONS.map((region) => {
      const [low, high] = STATED_REGION_LATENCY_MS[region];
      return [region, low + position * (high - low)];
    }),
  ) as Record<Region, number>;
}

/**
 * Last-mile medians that put each region's mean edge hit on its target, all other
 * parameters kept. A region's mean edge hit is linear in its median:
 * mean = network part + median × e^(σ²/2) × (1 − m + m × mobile factor).
 */
export function calibrateLastMileMedians(topology: Topology, targetGlobalMs = CALIBRATION_TARGET_GLOBAL_MS): Record<Region, number> {
  const { latency } = topology;
  const shares = Object.fromEntries(REGIONS.map((region, r) => [region, topology.clients.regionShare[r]])) as Record<Region, number>;
  const targets = regionTargetsMs(rangePosition(shares, targetGlobalMs));
  const summary = summariseLatency(topology);
  return Object.fromEntries(
    REGIONS.map((region, r) => {
      const m = topology.mobileShare[r];
      const perMs = lognormalMean(1, latency.lastMileSigma) * (1 - m + m * latency.mobileLastMileFactor);
      const network = summary.regions[r].edgeHitMs - perMs * latency.lastMileMedianMs[region];
      return [region, (targets[region] - network) / perMs];
    }),
  ) as Record<Region, number>;
}
