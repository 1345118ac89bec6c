import type { WindowPeakFigures } from '../metrics/windowPeaks.js';
import type { UpstreamFigures } from '../metrics/upstreamLoad.js';
import { roundTo as round } from './rounding.js';

/**
 * summary.json `capacity`'s figures with stable names (docs/capacity.md): the origin's
 * requests and bodies per second, the PoPs' and regional sites' peaks, each maximum with the
 * node it belongs to. Peaks are over whole seconds of the measured requests' work (1 s, and
 * the highest mean over 60 consecutive seconds); means over the measured seconds.
 */

/** The origin's load: requests of every cause (cdn.origin.requests) and the bodies it sent (cdn.origin.bytes), per second. */
export interface OriginCapacity {
  meanRequestsPerSecond: number;
  peakRequestsPerSecond1s: number;
  peakRequestsPerSecond60s: number;
  /** Body bytes as Gbit/s (8 bits a byte, 10^9 bits). */
  meanGbps: number;
  peakGbps1s: number;
  peakGbps60s: number;
}

/** The edge caches' peaks; each maximum names its PoP (the first by name on a tie). Shares absent without uplinks (model regions). */
export interface PopsCapacity {
  /** PoPs that answered a measured request: the set the shares and p95 are over. */
  withTraffic: number;
  maxUplinkShare1s?: number;
  maxUplinkShare1sPop?: string;
  maxUplinkShare60s?: number;
  maxUplinkShare60sPop?: string;
  /** The 95th percentile (nearest rank) of the PoPs' 60 s uplink shares. */
  p95UplinkShare60s?: number;
  maxPeakGbps1s: number;
  maxPeakGbps1sPop: string;
  maxPeakGbps60s: number;
  maxPeakGbps60sPop: string;
  maxPeakRequestsPerSecond: number;
  maxPeakRequestsPerSecondPop: string;
  /** Over every PoP (a PoP without measured traffic may still hold what the warm-up stored). */
  maxStoredBytes: number;
  maxStoredBytesPop: string;
}

/** The regional sites' load: bodies they sent their PoPs and fetches their PoPs sent them. */
export interface RegionalsCapacity {
  withTraffic: number;
  /** All sites together over the measured seconds: cdn.layers.regional.lookups and answeredFetchBytes per second. */
  meanRequestsPerSecond: number;
  meanGbps: number;
  maxPeakGbps1s: number;
  maxPeakGbps1sSite: string;
  maxPeakGbps60s: number;
  maxPeakGbps60sSite: string;
  maxPeakRequestsPerSecond: number;
  maxPeakRequestsPerSecondSite: string;
}

/** The fields of an edge row (summary.json `edges[]`) the PoP figures read. */
export interface PopPeaks {
  name: string;
  requests: number;
  uplinkGbitPerSecond?: number;
  peakEgressGbitPerSecond1s?: number;
  peakEgressGbitPerSecond60s?: number;
  peakRequestsPerSecond?: number;
  storedBytesPeak?: number;
}

const gbps = (bytesPerSecond: number): number => round((bytesPerSecond * 8) / 1e9, 6);
const perSecond = (count: number, seconds: number): number => (seconds > 0 ? count / seconds : 0);

/** A PoP's 1 s peak against its uplink, as summary.json rounds it; undefined without an uplink. */
export function uplinkShare(peakGbps: number | undefined, uplinkGbps: number | undefined): number | undefined {
  return peakGbps === undefined || uplinkGbps === undefined ? undefined : round(peakGbps / uplinkGbps, 6);
}

/**
 * The one meaning of "busiest" (summary.json `capacity.busiest`, the terminal's table,
 * pop-capacity chart, report.html): by share of the uplink at the 1 s peak, or by the 1 s
 * peak egress where PoPs have no uplink; ties by name. Returns a sorted copy.
 */
export function busiestOrder<T extends { name: string; uplinkGbitPerSecond?: number; peakEgressGbitPerSecond1s?: number }>(rows: readonly T[]): T[] {
  const load = (row: T): number => uplinkShare(row.peakEgressGbitPerSecond1s, row.uplinkGbitPerSecond) ?? row.peakEgressGbitPerSecond1s ?? 0;
  return [...rows].sort((a, b) => load(b) - load(a) || a.name.localeCompare(b.name));
}

/** The row with the largest value (the first by name on a tie), or undefined for no rows. */
function maxBy<T extends { name: string }>(rows: readonly T[], value: (row: T) => number): { value: number; name: string } | undefined {
  let best: { value: number; name: string } | undefined;
  for (const row of rows) {
    const v = value(row);
    if (best === undefined || v > best.value || (v === best.value && row.name.localeCompare(best.name) < 0)) best = { value: v, name: row.name };
  }
  return best;
}

/** Nearest-rank percentile of `values` (0 < q ≤ 1). */
function nearestRank(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

export function originCapacity(origin: WindowPeakFigures, measuredSeconds: number): OriginCapacity {
  return {
    meanRequestsPerSecond: round(perSecond(origin.requests, measuredSeconds), 6),
    peakRequestsPerSecond1s: origin.peakRequestsPerSecond1s,
    peakRequestsPerSecond60s: round(origin.peakRequestsPerSecond60s, 6),
    meanGbps: gbps(perSecond(origin.bytes, measuredSeconds)),
    peakGbps1s: gbps(origin.peakBytesPerSecond1s),
    peakGbps60s: gbps(origin.peakBytesPerSecond60s),
  };
}

/** The PoPs' figures from the edge rows; undefined when no PoP has capacity figures. */
export function popsCapacity(edges: readonly PopPeaks[]): PopsCapacity | undefined {
  const measured = edges.filter((edge) => edge.peakEgressGbitPerSecond1s !== undefined);
  const busy = measured.filter((edge) => edge.requests > 0);
  const peak1s = maxBy(busy, (edge) => edge.peakEgressGbitPerSecond1s ?? 0);
  const peak60s = maxBy(busy, (edge) => edge.peakEgressGbitPerSecond60s ?? 0);
  const requests = maxBy(busy, (edge) => edge.peakRequestsPerSecond ?? 0);
  const stored = maxBy(measured, (edge) => edge.storedBytesPeak ?? 0);
  if (peak1s === undefined || peak60s === undefined || requests === undefined || stored === undefined) return undefined;
  const withUplink = busy.filter((edge) => edge.uplinkGbitPerSecond !== undefined);
  const share1s = maxBy(withUplink, (edge) => uplinkShare(edge.peakEgressGbitPerSecond1s, edge.uplinkGbitPerSecond) ?? 0);
  const share60s = maxBy(withUplink, (edge) => uplinkShare(edge.peakEgressGbitPerSecond60s, edge.uplinkGbitPerSecond) ?? 0);
  return {
    withTraffic: busy.length,
    ...(share1s === undefined || share60s === undefined
      ? {}
      : {
          maxUplinkShare1s: share1s.value,
          maxUplinkShare1sPop: share1s.name,
          maxUplinkShare60s: share60s.value,
          maxUplinkShare60sPop: share60s.name,
          p95UplinkShare60s: nearestRank(
            withUplink.map((edge) => uplinkShare(edge.peakEgressGbitPerSecond60s, edge.uplinkGbitPerSecond) ?? 0),
            0.95,
          ),
        }),
    maxPeakGbps1s: peak1s.value,
    maxPeakGbps1sPop: peak1s.name,
    maxPeakGbps60s: peak60s.value,
    maxPeakGbps60sPop: peak60s.name,
    maxPeakRequestsPerSecond: requests.value,
    maxPeakRequestsPerSecondPop: requests.name,
    maxStoredBytes: stored.value,
    maxStoredBytesPop: stored.name,
  };
}

/** The regional sites' figures; undefined without a regional tier or without traffic to it. */
export function regionalsCapacity(upstream: UpstreamFigures, names: readonly string[], measuredSeconds: number): RegionalsCapacity | undefined {
  const sites = upstream.regionals.map((figures, i) => ({ name: names[i], ...figures })).filter((site) => site.requests > 0);
  const bytes1s = maxBy(sites, (site) => site.peakBytesPerSecond1s);
  const bytes60s = maxBy(sites, (site) => site.peakBytesPerSecond60s);
  const requests = maxBy(sites, (site) => site.peakRequestsPerSecond1s);
  if (bytes1s === undefined || bytes60s === undefined || requests === undefined) return undefined;
  const total = (pick: (site: WindowPeakFigures) => number) => sites.reduce((sum, site) => sum + pick(site), 0);
  return {
    withTraffic: sites.length,
    meanRequestsPerSecond: round(perSecond(total((site) => site.requests), measuredSeconds), 6),
    meanGbps: gbps(perSecond(total((site) => site.bytes), measuredSeconds)),
    maxPeakGbps1s: gbps(bytes1s.value),
    maxPeakGbps1sSite: bytes1s.name,
    maxPeakGbps60s: gbps(bytes60s.value),
    maxPeakGbps60sSite: bytes60s.name,
    maxPeakRequestsPerSecond: requests.value,
    maxPeakRequestsPerSecondSite: requests.name,
  };
}
