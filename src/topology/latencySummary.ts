import { greatCircleKm } from './geo.js';
import { expectedLastMileMs, lognormalMean, propagationRttMs } from './latencyParameters.js';
import { REGIONS, STATED_REGION_LATENCY_MS, type Region } from './regions.js';
import type { Topology } from './topology.js';

/**
 * Expected latencies of a topology, computed exactly from the model (no sampling): the
 * figures the calibration (docs/topology.md), the `cdnsim topology` report and the tests
 * compare with the stated ones. Means are demand-weighted over client places; misrouting is
 * included as the mixture it is.
 */

/** Spec 4.9: stated latency per layer, ms, as [low, high]. */
export const STATED_LAYER_LATENCY_MS = {
  edge: [5, 25],
  regional: [25, 50],
  origin: [50, 200],
} as const satisfies Record<string, readonly [number, number]>;

/** Spec 1.1: "Average global latency 25.45 ms". */
export const STATED_GLOBAL_LATENCY_MS = 25.45;

export interface LatencyFigures {
  /** Share of demand these figures cover. */
  readonly demandShare: number;
  /** Mean time to first byte of an edge hit (client → PoP hop), ms. */
  readonly edgeHitMs: number;
  /** Mean time to first byte of a regional hit, ms (equals edgeHitMs with the tier off). */
  readonly regionalHitMs: number;
  /** Mean time to first byte of a response the origin serves, ms. */
  readonly originFetchMs: number;
  /** Propagation round trip to the PoP a client is routed to (misrouting aside): demand-weighted p50/p90/p99, ms. */
  readonly nearestPopRttMs: { readonly p50: number; readonly p90: number; readonly p99: number };
}

export interface RegionLatencyFigures extends LatencyFigures {
  readonly region: Region;
  readonly statedMs: readonly [number, number];
}

export interface LatencySummary {
  readonly regions: readonly RegionLatencyFigures[];
  /** All demand, weighted by region shares. */
  readonly global: LatencyFigures;
  /** Mean origin service time (the origin layer's own latency), ms. */
  readonly originServiceMs: number;
}

interface PlaceFigures {
  edge: number;
  regional: number;
  origin: number;
  nearestRtt: number;
}

function placeFigures(topology: Topology): PlaceFigures[] {
  const { pops, regionalTier, origins, latency, routing, clients, routingParameters } = topology;
  const backbone = (km: number) => propagationRttMs(km, latency.backboneRouteInflation, latency.fibreKmPerMs);
  const serviceMs = lognormalMean(latency.originServiceMedianMs, latency.originServiceSigma);
  // Per PoP: what a regional hit adds, and what an origin fetch adds on top of the edge path.
  const regionalAdd = pops.map((pop, p) =>
    regionalTier.enabled ? backbone(greatCircleKm(pop, regionalTier.sites[regionalTier.siteOfPop[p]])) + latency.regionalProcessingMs : 0,
  );
  const originAdd = pops.map((pop, p) => {
    if (!regionalTier.enabled) return backbone(greatCircleKm(pop, origins[topology.originOfPop[p]])) + serviceMs;
    const site = regionalTier.siteOfPop[p];
    return regionalAdd[p] + backbone(greatCircleKm(regionalTier.sites[site], origins[topology.originOfRegional[site]])) + serviceMs;
  });
  const alternates = routing.stride - 1;
  const misroute = alternates > 0 ? routingParameters.misrouteProbability : 0;
  return clients.cities.map((city, place) => {
    const lastMile = expectedLastMileMs(latency, city.region, topology.mobileShare[clients.regionOf[place]]);
    let edge = 0;
    let regional = 0;
    let origin = 0;
    for (let j = 0; j < routing.stride; j++) {
      const weight = j === 0 ? 1 - misroute : misroute / alternates;
      if (weight === 0) continue;
      const pop = routing.ranked[place * routing.stride + j];
      const hit = routing.accessRttMs[place * routing.popCount + pop] + lastMile + latency.edgeProcessingMs;
      edge += weight * hit;
      regional += weight * (hit + regionalAdd[pop]);
      origin += weight * (hit + originAdd[pop]);
    }
    const nearestRtt = routing.accessRttMs[place * routing.popCount + routing.ranked[place * routing.stride]];
    return { edge, regional, origin, nearestRtt };
  });
}

/** The q-quantile of values under weights (the smallest value whose cumulative weight reaches q). */
export function weightedQuantile(values: readonly number[], weights: readonly number[], q: number): number {
  const order = [...values.keys()].sort((a, b) => values[a] - values[b]);
  const total = weights.reduce((sum, w) => sum + w, 0);
  let running = 0;
  for (const i of order) {
    running += weights[i];
    if (running >= q * total - 1e-12) return values[i];
  }
  return values[order[order.length - 1]];
}

function figuresOver(places: readonly number[], figures: readonly PlaceFigures[], demand: Float64Array): LatencyFigures {
  const weights = places.map((i) => demand[i]);
  const share = weights.reduce((sum, w) => sum + w, 0);
  const mean = (pick: (f: PlaceFigures) => number) => (share > 0 ? places.reduce((sum, i) => sum + demand[i] * pick(figures[i]), 0) / share : NaN);
  const rtts = places.map((i) => figures[i].nearestRtt);
  const quantile = (q: number) => (share > 0 ? weightedQuantile(rtts, weights, q) : NaN);
  return {
    demandShare: share,
    edgeHitMs: mean((f) => f.edge),
    regionalHitMs: mean((f) => f.regional),
    originFetchMs: mean((f) => f.origin),
    nearestPopRttMs: { p50: quantile(0.5), p90: quantile(0.9), p99: quantile(0.99) },
  };
}

export function summariseLatency(topology: Topology): LatencySummary {
  const figures = placeFigures(topology);
  const { clients, latency } = topology;
  const all = [...clients.cities.keys()];
  return {
    regions: REGIONS.map((region, r) => ({
      region,
      statedMs: STATED_REGION_LATENCY_MS[region],
      ...figuresOver(
        all.filter((i) => clients.regionOf[i] === r),
        figures,
        clients.demand,
      ),
    })),
    global: figuresOver(all, figures, clients.demand),
    originServiceMs: lognormalMean(latency.originServiceMedianMs, latency.originServiceSigma),
  };
}
