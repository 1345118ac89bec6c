import { exactly, POINT_MEAN_TOLERANCE, pointMean, type Bounds } from './statedVerdict.js';

/**
 * The figures the service states (spec 1.1, 4.8, 4.9, 7.1, 8) that a run can be held
 * against, one row each. Ids are stable: summary.json's `stated` rows and a scenario's
 * `expect` keys use them.
 */

/** What a row's value measures, which decides how it is written and parsed. */
export type StatedUnit = 'count' | 'ms' | 'ratio' | 'seconds' | 'bytes' | 'perSecond' | 'gbps';

export interface StatedFigure {
  readonly id: string;
  /** What is compared, in words (which requests, which statistic). */
  readonly figure: string;
  readonly unit: StatedUnit;
  /** The stated value as the service gives it, with its spec section. */
  readonly stated: string;
  /** The bounds the stated value gives under the tolerance rules (statedVerdict.ts). */
  readonly bounds: Bounds;
  /**
   * Set on a second reading of a stated figure that the spec does not pin down: the id of the
   * row that judges the figure. This row shows its value for comparison and is judged only
   * when a scenario's `expect` names it.
   */
  readonly comparisonFor?: string;
  /**
   * For the terminal's table (issue 26): what the service description states, in its own
   * words and with its section, and how cdnsim judges a run against it (the tolerance is
   * the project's, not the service's). summary.json keeps `stated` as it was.
   */
  readonly says: string;
  readonly judgedBy: string;
}

/** Region ids of the per-region rows, in REGIONS order (spec 1.1 table). */
export const STATED_REGION_IDS = {
  'North America': 'latency.region.northAmerica',
  Europe: 'latency.region.europe',
  'Asia-Pacific': 'latency.region.asiaPacific',
  'Latin America': 'latency.region.latinAmerica',
  Africa: 'latency.region.africa',
} as const;

const STATED_REGION_RANGES_MS: Record<keyof typeof STATED_REGION_IDS, readonly [number, number]> = {
  'North America': [15, 20],
  Europe: [18, 25],
  'Asia-Pacific': [22, 28],
  'Latin America': [25, 35],
  Africa: [30, 45],
};

/** spec 1.1: "Average global latency 25.45 ms". */
export const STATED_GLOBAL_LATENCY_MS = 25.45;
/** spec 7.1, 8: an origin error is cached for 5 s. */
export const STATED_ERROR_CACHE_SECONDS = 5;
/** spec 4.8, 8: large media are cached as 5 MB chunks. */
export const STATED_CHUNK_BYTES = 5_000_000;
/** spec 8: versioned static assets, one year. */
export const STATED_LONG_LIFETIME_SECONDS = 31_536_000;
/** spec 8 (and 4.3, 8.1 row 2, 8.2 rule 3): static pages, 3600 s with stale-while-revalidate 86400 s. */
export const STATED_STATIC_PAGE_SECONDS = 3_600;
export const STATED_STATIC_PAGE_SWR_SECONDS = 86_400;

/** The project's ±5 % around the stated 25.45 ms average, as bounds in words (statedVerdict.ts). */
const POINT_MEAN_JUDGED = (() => {
  const { min = 0, max = 0 } = pointMean(STATED_GLOBAL_LATENCY_MS);
  return `±${POINT_MEAN_TOLERANCE * 100} %: ${min.toFixed(1)}–${max.toFixed(1)} ms`;
})();

export const STATED_FIGURES: readonly StatedFigure[] = [
  { id: 'pops', figure: 'points of presence (edge caches of the PoP model)', unit: 'count', stated: 'more than 200 (spec 1.1)', says: 'more than 200 PoPs (1.1)', judgedBy: 'at least 201', bounds: { min: 201 } },
  // spec 1.1 gives the global average beside the regional ones, and 25.45 ms is what the
  // regional ranges average to weighted by users (src/topology/clients.ts): one population,
  // the requests the edge answers. So that reading is judged; all requests are shown beside it.
  {
    id: 'latency.global.edge',
    figure: 'global mean latency, edge-served requests',
    unit: 'ms',
    stated: `${STATED_GLOBAL_LATENCY_MS} ms ± 5 % (spec 1.1)`,
    says: `${STATED_GLOBAL_LATENCY_MS} ms average (1.1)`, judgedBy: POINT_MEAN_JUDGED, bounds: pointMean(STATED_GLOBAL_LATENCY_MS),
  },
  {
    id: 'latency.global.all',
    figure: 'global mean latency, all requests',
    unit: 'ms',
    stated: `${STATED_GLOBAL_LATENCY_MS} ms ± 5 % (spec 1.1)`,
    says: `${STATED_GLOBAL_LATENCY_MS} ms average (1.1)`, judgedBy: 'shown, not judged', bounds: pointMean(STATED_GLOBAL_LATENCY_MS),
    comparisonFor: 'latency.global.edge',
  },
  ...Object.entries(STATED_REGION_IDS).map(([region, id]): StatedFigure => {
    const [low, high] = STATED_REGION_RANGES_MS[region as keyof typeof STATED_REGION_IDS];
    return { id, figure: `${region} mean latency, edge hits`, unit: 'ms', stated: `${low}–${high} ms (spec 1.1)`, says: `${low}–${high} ms average (1.1)`, judgedBy: 'the range', bounds: { min: low, max: high } };
  }),
  // "Immediate": a browser hit costs 0 ms in the model; under 1 ms counts as immediate.
  { id: 'latency.layer.browser', figure: 'browser cache mean latency, browser hits', unit: 'ms', stated: 'immediate, under 1 ms (spec 4.9)', says: 'immediate (4.9)', judgedBy: 'under 1 ms', bounds: { min: 0, max: 1 } },
  { id: 'latency.layer.edge', figure: 'edge mean latency, edge-served requests', unit: 'ms', stated: '5–25 ms (spec 4.9)', says: '5–25 ms (4.9)', judgedBy: 'the range', bounds: { min: 5, max: 25 } },
  { id: 'latency.layer.regional', figure: 'regional mean latency, regional-served requests', unit: 'ms', stated: '25–50 ms (spec 4.9)', says: '25–50 ms (4.9)', judgedBy: 'the range', bounds: { min: 25, max: 50 } },
  // spec 4.9 names layer 4 "Origin server": its window is judged on the server's own time to
  // its first byte. A client's time to first byte for an origin fetch depends on where the
  // deployment puts its origin, which the service does not state; it is shown beside it.
  {
    id: 'latency.layer.originService',
    figure: "origin server mean service time to its first byte, the origin's answers",
    unit: 'ms',
    stated: '50–200 ms (spec 4.9)',
    says: '50–200 ms (4.9)', judgedBy: 'the range', bounds: { min: 50, max: 200 },
  },
  {
    id: 'latency.layer.origin',
    figure: "origin mean latency: the client's time to first byte, origin-served requests",
    unit: 'ms',
    stated: '50–200 ms (spec 4.9)',
    says: '50–200 ms (4.9)', judgedBy: 'shown, not judged', bounds: { min: 50, max: 200 },
    comparisonFor: 'latency.layer.originService',
  },
  { id: 'cdnHitRatio', figure: 'CDN hit ratio (edge or regional, of requests reaching the edge)', unit: 'ratio', stated: 'at least 95 % (spec 1.1)', says: '95 % hit ratio (1.1)', judgedBy: 'at least 95 %', bounds: { min: 0.95 } },
  {
    id: 'availability.originProblems',
    figure: 'availability during outages and error bursts',
    unit: 'ratio',
    stated: 'at least 99.9 % (spec 1.1)',
    says: '99.9 % (1.1)', judgedBy: 'at least 99.9 %', bounds: { min: 0.999 },
  },
  { id: 'errorCaching', figure: 'time an origin error is cached (edge)', unit: 'seconds', stated: '5 s (spec 7.1, 8)', says: '5 s (7.1, 8)', judgedBy: 'exactly', bounds: exactly(STATED_ERROR_CACHE_SECONDS) },
  { id: 'chunkSize', figure: 'range request chunk size', unit: 'bytes', stated: '5 MB (spec 4.8, 8)', says: '5 MB chunks (4.8, 8)', judgedBy: 'exactly', bounds: exactly(STATED_CHUNK_BYTES) },
  {
    id: 'lifetime.long',
    figure: 'edge lifetime of classes sent with max-age=31536000',
    unit: 'seconds',
    stated: '31536000 s (spec 8)',
    says: 'one year, 31536000 s (8)', judgedBy: 'exactly', bounds: exactly(STATED_LONG_LIFETIME_SECONDS),
  },
  {
    id: 'lifetime.staticPage',
    figure: 'edge lifetime of classes sent with max-age=3600, stale-while-revalidate=86400',
    unit: 'seconds',
    stated: '3600 s, stale-while-revalidate 86400 s (spec 8)',
    says: '3600 s, swr 86400 s (8)', judgedBy: 'exactly, swr too', bounds: exactly(STATED_STATIC_PAGE_SECONDS),
  },
  // A stated capacity, not a measured one: the run's peak must fit in it (share of the uplink at most 1).
  {
    id: 'uplink.major',
    figure: 'peak egress over 1 s of the busiest major PoP, as a share of its uplink',
    unit: 'ratio',
    stated: '100 Gbit/s uplinks at major PoPs (spec 1.1)',
    says: '100 Gbit/s uplinks (1.1)', judgedBy: '1 s peak ≤ uplink', bounds: { max: 1 },
  },
];

export const STATED_FIGURE_IDS: readonly string[] = STATED_FIGURES.map((figure) => figure.id);

/**
 * summary.json `capacity` figures a scenario may hold a run to under `expect:`, by their path
 * (docs/capacity.md). The service states none of them: a row appears in the stated table only
 * when the scenario's `expect` names it, e.g. `capacity.origin.peakRequestsPerSecond1s: { max: 5k/s }`.
 */
const capacityFigure = (id: string, figure: string, unit: StatedUnit): StatedFigure => ({ id, figure, unit, stated: 'not stated by the service (scenario expect only)', says: 'not stated', judgedBy: 'expect only', bounds: {} });

export const CAPACITY_EXPECT_FIGURES: readonly StatedFigure[] = [
  capacityFigure('capacity.origin.meanRequestsPerSecond', "origin requests per second (every cause), mean over the measured seconds", 'perSecond'),
  capacityFigure('capacity.origin.peakRequestsPerSecond1s', 'origin requests in its busiest second', 'perSecond'),
  capacityFigure('capacity.origin.peakRequestsPerSecond60s', 'origin requests per second, busiest 60 s mean', 'perSecond'),
  capacityFigure('capacity.origin.meanGbps', 'origin body egress, mean over the measured seconds', 'gbps'),
  capacityFigure('capacity.origin.peakGbps1s', 'origin body egress in its busiest second', 'gbps'),
  capacityFigure('capacity.origin.peakGbps60s', 'origin body egress, busiest 60 s mean', 'gbps'),
  capacityFigure('capacity.pops.maxUplinkShare1s', 'busiest PoP: peak egress over 1 s as a share of its uplink', 'ratio'),
  capacityFigure('capacity.pops.maxUplinkShare60s', 'busiest PoP: peak egress over 60 s as a share of its uplink', 'ratio'),
  capacityFigure('capacity.pops.p95UplinkShare60s', "95th percentile of the PoPs' 60 s uplink shares (PoPs with traffic)", 'ratio'),
  capacityFigure('capacity.pops.maxPeakGbps1s', "highest PoP egress over 1 s", 'gbps'),
  capacityFigure('capacity.pops.maxPeakGbps60s', 'highest PoP egress, busiest 60 s mean', 'gbps'),
  capacityFigure('capacity.pops.maxPeakRequestsPerSecond', 'most requests a PoP finished in one second', 'perSecond'),
  capacityFigure('capacity.pops.maxStoredBytes', 'most bytes a PoP cache held', 'bytes'),
  capacityFigure('capacity.regionals.maxPeakGbps1s', 'highest regional egress to its PoPs over 1 s', 'gbps'),
  capacityFigure('capacity.regionals.maxPeakGbps60s', 'highest regional egress to its PoPs, busiest 60 s mean', 'gbps'),
  capacityFigure('capacity.regionals.maxPeakRequestsPerSecond', 'most PoP fetches a regional site received in one second', 'perSecond'),
];
