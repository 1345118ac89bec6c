import { measuredWholeSeconds } from '../metrics/windowPeaks.js';
import type { ClassCaching } from '../experiment/contentCaching.js';
import { adaptiveSummary, type AdaptiveSummary } from './adaptiveReport.js';
import type { NodeState, RecordingFacts, RunResult } from '../experiment/runScenario.js';
import { incidentRow, repeatedIncidentRows, type IncidentRow, type RepeatedIncidentRow } from './incidentRows.js';
import type { LayerActivity, OriginActivity } from '../cdn/layeredFlow.js';
import type { OutcomeFigures } from '../metrics/cdnOutcomes.js';
import type { LatencySummary } from '../metrics/latencyHistogram.js';
import type { NodeFigures } from '../metrics/nodeCounters.js';
import { ratio } from '../metrics/requestMetrics.js';
import { buildStatedRows, type StatedRow } from './statedTable.js';
import { warmupSummary, type WarmupSummary } from './warmupSummary.js';
import { roundTo as round } from './rounding.js';
import type { ModelClassFacts } from '../workload/trafficModels/modelTraffic.js';
import { conservationChecks, type ChecksFigure } from './conservation.js';
import { busiestOrder, originCapacity, popsCapacity, regionalsCapacity, type OriginCapacity, type PopsCapacity, type RegionalsCapacity } from './capacityFigures.js';

/** Latency percentiles of one group of requests, in ms (docs/summary-json.md). */
export type LatencyFigures = Omit<LatencySummary, 'min' | 'max'>;

export type { IncidentRow, RepeatedIncidentRow } from './incidentRows.js';

/**
 * The deterministic result of a run: the same scenario and seed give byte-identical JSON.
 * Key names are stable; later versions add keys and never rename them.
 */
export interface Summary {
  /** 1: this shape (docs/summary-json.md); a version that renames or removes a key counts up. */
  schemaVersion: typeof SUMMARY_SCHEMA_VERSION;
  scenario: string;
  seed: number;
  /** Requests measured (after warm-up). */
  requests: number;
  warmupRequests: number;
  /** How the run was warmed: method, requests, simulated time, and for a cache-only warm-up its last block's CDN hit ratio (docs/warmup.md). */
  warmup: WarmupSummary;
  simulatedSeconds: number;
  stopReason: 'requests' | 'duration' | 'recording';
  /** content.recorded: the file, its distinct GET URLs and GET requests, and what was left out. */
  recording?: RecordingFacts;
  /** Every class's catalogue together as the run starts (contentClasses[].objects, catalogueBytes): compare a cache's capacity with `bytes`. */
  catalogue: { objects: number; bytes: number };
  /** Per layer, per client request: requests it answered / requests that reached it; `cdn`: by edge or regional / reaching the edge. */
  hitRatio: Record<string, number>;
  /** Per layer: client bytes served from its stored copies / client bytes asked of it, counted per 5 MB chunk for ranges (docs/byte-figures.md, spec 4.8). */
  byteHitRatio: Record<string, number>;
  /**
   * Per CDN cache layer (`edge`, `regional`), per lookup: the layer's own lookups answered from
   * what its nodes held / its lookups (cdn.layers). A request coalesced at a PoP is one lookup
   * there and none at the regional site, where its PoP's one fetch is one lookup: the figure
   * Che's approximation or a trace replay of that cache gives.
   */
  lookupHitRatio: Record<string, number>;
  lookupByteHitRatio: Record<string, number>;
  /**
   * 1 − origin requests / client requests: `cdn.origin.requests` (every request the measured
   * requests caused at the origin, background revalidations included) over `requests`
   * (docs/origin-accounting.md). Below 0 when the origin gets more requests than clients send
   * (ranges fetched as several chunks, no CDN).
   */
  originOffload: number;
  /** 1 − origin body bytes / client bytes; negative when whole-chunk fetches exceed what clients read (docs/byte-figures.md). */
  originByteOffload: number;
  /** Measured requests by the deepest layer that answered them: `origin` counts client requests the origin answered, not origin requests (docs/origin-accounting.md). */
  requestsByLayer: Record<string, number>;
  /** Client bytes each layer served (origin: passed through from the origin); they add up to the bytes clients asked for. */
  bytesByLayer: Record<string, number>;
  latencyMs: {
    all: LatencyFigures;
    byRegion: Record<string, LatencyFigures>;
    byLayer: Record<string, LatencyFigures>;
    /** Per region, per serving layer: the spec's per-region averages (1.1) compare with edge hits. */
    byRegionAndLayer: Record<string, Record<string, LatencyFigures>>;
  };
  /** Model pops: time to send the body through the PoP's uplink after the first byte (spec 1.1: 100 Gbit/s at major PoPs, 10 Gbit/s assumed at minor ones). */
  transferMs?: LatencyFigures;
  /** Without content classes: what the policy engine decided for the content at the edge, and why (each reason cites its source). */
  edgeCaching?: EdgeCaching;
  /** Per content class (one, `objects`, without content.classes): the edge decision and the class's hit ratios. */
  contentClasses: ClassFigures[];
  /** Per content class that takes its requests from a traffic model (`content.classes[].model`, docs/traffic-models.md); absent without one. */
  trafficModels?: TrafficModelFigures[];
  /** Per edge cache: measured requests and hit ratios, and what it holds at the end. */
  edges: NodeFiguresRow[];
  /** Per regional site (spec 4.9 layer 3); empty without a regional tier. */
  regionals: NodeFiguresRow[];
  /**
   * What theory predicts for each edge cache in steady state, where a model applies
   * (LRU: Che's approximation). A simulated edge hit ratio below it usually means the
   * warm-up was too short for that edge to fill.
   */
  theory?: { model: 'che-lru' | 'ttl'; edgeHitRatio: number; edgeByteHitRatio: number; missDelaySeconds?: number };
  /** What the CDN's nodes did on the simulated clock (docs/summary-json.md `cdn`, docs/simulated-cdn.md). */
  cdn: CdnSummary;
  /** Capacity figures with stable names (docs/capacity.md) and the busiest edge caches against their uplinks (spec 1.1); absent when the run records no timeline. */
  capacity?: CapacitySummary;
  /** One row per incident of the scenario, in its order; a repeated entry's occurrences each have one. */
  incidents: IncidentRow[];
  /** One row per repeated entry of the scenario's incidents (`every`), over all its occurrences; absent when none repeats. */
  repeatedIncidents?: RepeatedIncidentRow[];
  /** The adaptive TTL controller's parameters and adjustments (spec 1.2 item 6); absent when it is off. */
  adaptive?: AdaptiveSummary;
  /** The service's stated figures against the run, or the scenario's `expect` for them (docs/stated-figures.md). */
  stated: StatedRow[];
  /** The conservation checks on the figures above (docs/conservation.md): a failure is a bug in the simulator, and the command exits 4. */
  checks: ChecksFigure;
}

/**
 * A model class's facts (docs/summary-json.md `trafficModels`). The objects count the whole
 * run, warm-ups included: every PoP's initial stack is made of created objects.
 */
export type TrafficModelFigures = Omit<ModelClassFacts, 'name'> & {
  /** The content class's name. */
  class: string;
  /** sharedObjects / (createdObjects − startObjects + sharedObjects): the share of the streams' new-object draws after the run's start that were shared (near `sharing` with several PoPs). */
  sharedShare: number;
};

export interface CdnSummary {
  coalescing: boolean;
  validators: boolean;
  /** deployment.cdn (spec 1.3): false sends every request past the PoP straight to the origin. */
  enabled: boolean;
  /** Measured requests answered without an error status / measured requests. */
  availability: number;
  /** Requests that waited for a fetch already in flight, by the layer where they joined it. */
  coalescedRequests: OutcomeFigures['coalesced'];
  /** Requests whose stale copy was confirmed by a 304 (RFC 9111 §4.3.3). */
  revalidatedRequests: number;
  /** Requests served a stale copy, by cause (spec 4.7, RFC 5861). */
  staleServed: OutcomeFigures['staleServed'];
  /** Requests answered with an error status, and the cached errors among them (spec 7.1). */
  errors: { responses: number; cachedErrorsServed: number };
  /** Responses whose content is older than the origin's current version: share, mean and worst age of the newer version. */
  staleness: OutcomeFigures['staleness'];
  /** Per node layer: coalesced joins, fetches sent upstream, background revalidations (and those that refreshed the copy), 304s received. */
  layers: Record<string, LayerFigures>;
  /** The origin requests the measured requests caused: by response (fullResponses + notModified + errors + refused) and by cause (`byCause`), each adding up to `requests`; body bytes, mean service time. */
  origin: OriginFigures;
}

/** The origin's load over the measured part (spec 4.9 layer 4). */
export interface OriginFigures extends Omit<OriginActivity, 'serviceMs'> {
  /** Mean service time of the answers it gave (refused connections excluded), ms; null when it answered none. */
  meanServiceMs: number | null;
}

function originFigures({ serviceMs, byCause, ...counts }: OriginActivity): OriginFigures {
  const answered = counts.requests - counts.refused;
  return { ...counts, byCause: { ...byCause }, meanServiceMs: answered === 0 ? null : round(serviceMs / answered, 3) };
}

/** DESIGN "Metrics": 1 − origin requests / client requests, both over the measured requests (docs/origin-accounting.md); 0 without requests. */
export function originOffload(originRequests: number, clientRequests: number): number {
  return clientRequests === 0 ? 0 : 1 - ratio(originRequests, clientRequests);
}

export interface EdgeCaching {
  responseHeaders: Record<string, string>;
  cacheable: boolean;
  /** Infinity is written as null (never expires within any run). */
  ttlSeconds: number | null;
  reasons: readonly string[];
}

export interface ClassFigures extends EdgeCaching {
  name: string;
  /** The URL the decision was taken for. */
  url: string;
  /** Why the origin sends these headers (deployment kind rule, spec 1.3, or a named profile). */
  headerSource: string;
  /** Measured requests for the class. */
  requests: number;
  /** With browser caches (traffic.clients): the share of the class's requests a browser answered. */
  browserHitRatio?: number;
  /** Over the class's requests that reached the edge. */
  edgeHitRatio: number;
  /** Served by any CDN layer (edge or regional) over the class's requests. */
  cdnHitRatio: number;
  cdnByteHitRatio: number;
  /** The class's catalogue as the run starts: its objects and the sum of their sizes (what a cache needs to hold them all). */
  objects: number;
  catalogueBytes: number;
  /** Churn over the whole run, warm-up included: objects that appeared (one-hit wonders among them) and updates. */
  newObjects: number;
  oneHitWonders: number;
  updates: number;
}

export interface NodeFiguresRow {
  name: string;
  /** Absent for a single global edge. */
  region?: string;
  requests: number;
  hitRatio: number;
  byteHitRatio: number;
  storedObjects: number;
  storedBytes: number;
  /** The node's capacity where it differs from its layer's `capacity` (per-node capacities, docs/plan.md). */
  capacityBytes?: number;
  /** Edge caches of model pops: where the PoP is, and its uplink (spec 1.1: 100 Gbit/s at major PoPs; 10 Gbit/s assumed at minor ones). */
  latitude?: number;
  longitude?: number;
  uplinkGbitPerSecond?: number;
  /** Edge caches: the highest egress to clients over 1 s and over 60 s, the most requests in 1 s, the most bytes stored at once (measured part). */
  peakEgressGbitPerSecond1s?: number;
  peakEgressGbitPerSecond60s?: number;
  peakRequestsPerSecond?: number;
  storedBytesPeak?: number;
}

export interface CapacitySummary {
  /** Bytes each edge cache may hold (edge.capacity). */
  edgeCapacityBytes: number;
  /** The measured part on the clock in whole seconds from warmup.simulatedSeconds to simulatedSeconds, or to the last origin or regional fetch of a measured request if later (every second it touches, at least 1): the 1 s windows of the origin's and regional sites' peaks, and what the means are over. */
  measuredSeconds: number;
  /** The origin's requests (every cause) and bodies per second; absent where the run does not record them. */
  origin?: OriginCapacity;
  /** The PoPs' highest peaks and uplink shares, each with its PoP. */
  pops?: PopsCapacity;
  /** The regional sites' peaks toward their PoPs; absent without a tier. */
  regionals?: RegionalsCapacity;
  /** The edge caches with the highest 1 s peak against their uplink (by peak egress without uplinks), at most CAPACITY_ROWS. */
  busiest: BusiestPop[];
}

export interface BusiestPop {
  name: string;
  region?: string;
  uplinkGbitPerSecond?: number;
  peakEgressGbitPerSecond1s: number;
  /** Peak egress / uplink (1 = saturated); absent without uplinks. */
  uplinkShare1s?: number;
  peakEgressGbitPerSecond60s: number;
  uplinkShare60s?: number;
  peakRequestsPerSecond: number;
}

export const SUMMARY_SCHEMA_VERSION = 1;
/** Busiest PoPs listed in summary.json `capacity` and in the terminal report. */
export const CAPACITY_ROWS = 5;

function figures(summary: LatencySummary): LatencyFigures {
  return {
    count: summary.count,
    mean: round(summary.mean, 3),
    p50: round(summary.p50, 3),
    p90: round(summary.p90, 3),
    p95: round(summary.p95, 3),
    p99: round(summary.p99, 3),
    p999: round(summary.p999, 3),
  };
}

const mapValues = <T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));

export function buildSummary(result: RunResult): Summary {
  const measured = measuredSummary(result);
  const stated = { ...measured, stated: buildStatedRows(result, measured, result.scenario.expect) };
  return { ...stated, checks: conservationChecks(stated) };
}

function measuredSummary(result: RunResult): Omit<Summary, 'stated' | 'checks'> {
  const { metrics } = result;
  // The browser is a cache layer but not a CDN one: the CDN hit ratio starts at the edge (DESIGN "Metrics").
  const ratios = metrics.hitRatios(result.layers.cacheNames, result.layers.nodeNames);
  const latency = metrics.latency();
  const clientBytes = metrics.reaching(0).bytes;
  const edges = result.edges.map((node) => nodeRow(node, result.scenario.edge.capacity));
  return {
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    scenario: result.scenario.name,
    seed: result.seed,
    requests: metrics.requests,
    warmupRequests: result.warmupRequests,
    warmup: warmupSummary(result.warmup),
    simulatedSeconds: round(result.simulatedMs / 1000, 6),
    stopReason: result.stopReason,
    ...(result.recording ? { recording: result.recording } : {}),
    catalogue: {
      objects: result.classes.reduce((sum, klass) => sum + klass.churn.objects, 0),
      bytes: result.classes.reduce((sum, klass) => sum + klass.churn.catalogueBytes, 0),
    },
    hitRatio: mapValues(ratios.requests, (v) => round(v, 6)),
    byteHitRatio: mapValues(ratios.bytes, (v) => round(v, 6)),
    lookupHitRatio: mapValues(result.cdn.layers, (layer) => round(ratio(layer.lookupHits, layer.lookups), 6)),
    lookupByteHitRatio: mapValues(result.cdn.layers, (layer) => round(ratio(layer.lookupHitBytes, layer.lookupBytes), 6)),
    originOffload: round(originOffload(result.cdn.origin.requests, metrics.requests), 6),
    originByteOffload: round(clientBytes === 0 ? 0 : 1 - result.cdn.origin.bytes / clientBytes, 6),
    requestsByLayer: Object.fromEntries(metrics.layerNames.map((name, i) => [name, metrics.servedBy(i).requests])),
    bytesByLayer: Object.fromEntries(metrics.layerNames.map((name, i) => [name, metrics.servedBy(i).bytes])),
    latencyMs: {
      all: figures(latency.all),
      byRegion: mapValues(latency.byRegion, figures),
      byLayer: mapValues(latency.byLayer, figures),
      byRegionAndLayer: mapValues(latency.byRegionAndLayer, (layers) => mapValues(layers, figures)),
    },
    ...(result.transfer ? { transferMs: figures(result.transfer) } : {}),
    ...(result.scenario.content.classes === undefined && result.scenario.content.recorded === undefined ? { edgeCaching: edgeCachingOf(result.contentCaching.classes[0]) } : {}),
    contentClasses: result.contentCaching.classes.map((caching, c) => ({
      name: caching.name,
      url: caching.url,
      headerSource: caching.headerSource,
      ...edgeCachingOf(caching),
      requests: (result.classes[c].browser ?? result.classes[c].edge).requests,
      ...browserHitRatioOf(result.classes[c].browser),
      edgeHitRatio: round(ratio(result.classes[c].edge.hits, result.classes[c].edge.requests), 6),
      cdnHitRatio: round(ratio(result.classes[c].cdn.hits, result.classes[c].cdn.requests), 6),
      cdnByteHitRatio: round(ratio(result.classes[c].cdn.hitBytes, result.classes[c].cdn.bytes), 6),
      ...result.classes[c].churn,
    })),
    ...(result.trafficModels === undefined ? {} : { trafficModels: result.trafficModels.map(trafficModelFigures) }),
    edges,
    regionals: result.regionals.map((node) => nodeRow(node, result.scenario.regional.capacity)),
    ...(result.theory
      ? {
          theory: {
            model: result.theory.model,
            edgeHitRatio: round(result.theory.hitRatio, 6),
            edgeByteHitRatio: round(result.theory.byteHitRatio, 6),
            ...(result.theory.missDelayMs === undefined ? {} : { missDelaySeconds: round(result.theory.missDelayMs / 1000, 6) }),
          },
        }
      : {}),
    cdn: cdnSummary(result),
    ...(result.timeline ? { capacity: capacitySummary(result, edges) } : {}),
    incidents: result.incidents.map(incidentRow),
    ...repeatedIncidentsOf(result),
    ...(result.adaptive ? { adaptive: adaptiveSummary(result.adaptive) } : {}),
  };
}

function cdnSummary(result: RunResult): CdnSummary {
  const { cdn } = result;
  const outcomes = cdn.outcomes;
  return {
    coalescing: cdn.coalescing,
    validators: cdn.validators,
    enabled: result.scenario.deployment.cdn,
    availability: round(outcomes.availability, 6),
    coalescedRequests: outcomes.coalesced,
    revalidatedRequests: outcomes.revalidated,
    staleServed: outcomes.staleServed,
    errors: { responses: outcomes.errors, cachedErrorsServed: outcomes.cachedErrorsServed },
    staleness: {
      responses: outcomes.staleness.responses,
      share: round(outcomes.staleness.share, 6),
      meanSeconds: round(outcomes.staleness.meanSeconds, 3),
      maxSeconds: round(outcomes.staleness.maxSeconds, 3),
    },
    layers: Object.fromEntries(Object.entries(cdn.layers).map(([layer, activity]) => [layer, layerFigures(activity)])),
    origin: originFigures(cdn.origin),
  };
}

/** A node layer's counters, with how many background revalidations one expiry costs it. */
export interface LayerFigures extends LayerActivity {
  /**
   * Background revalidations per refresh: backgroundRevalidations / backgroundRefreshes (null
   * when none refreshed the copy). 1 when each expiry costs one revalidation (a single layer);
   * above 1 when the next layer answers with its own stale copy (RFC 5861 §3 allows it) and the
   * node, still stale, asks again on a later request: edge → regional revalidations per expiry.
   */
  backgroundRevalidationsPerExpiry: number | null;
}

function layerFigures(activity: LayerActivity): LayerFigures {
  return {
    ...activity,
    backgroundRevalidationsPerExpiry: activity.backgroundRefreshes === 0 ? null : round(activity.backgroundRevalidations / activity.backgroundRefreshes, 4),
  };
}

function repeatedIncidentsOf(result: RunResult): { repeatedIncidents?: RepeatedIncidentRow[] } {
  const rows = repeatedIncidentRows(result.incidents);
  return rows.length === 0 ? {} : { repeatedIncidents: rows };
}

function edgeCachingOf(caching: ClassCaching): EdgeCaching {
  return {
    responseHeaders: { ...caching.responseHeaders },
    cacheable: caching.edge.store,
    ttlSeconds: Number.isFinite(caching.edge.ttlMs) ? caching.edge.ttlMs / 1000 : null,
    reasons: caching.edgeReasons,
  };
}

const gbit = (bitsPerSecond: number): number => round(bitsPerSecond / 1e9, 6);

/** `layerCapacity`: the layer's `capacity`; a node sized otherwise (docs/plan.md) names its own. */
function nodeRow(node: NodeState, layerCapacity: number): NodeFiguresRow {
  const { capacity } = node;
  return {
    name: node.name,
    ...(node.region === undefined ? {} : { region: node.region }),
    requests: node.requests,
    hitRatio: round(ratio(node.hits, node.requests), 6),
    byteHitRatio: round(ratio(node.hitBytes, node.bytes), 6),
    storedObjects: node.storedObjects,
    storedBytes: node.storedBytes,
    ...(node.capacityBytes === undefined || node.capacityBytes === layerCapacity ? {} : { capacityBytes: node.capacityBytes }),
    ...(node.latitude === undefined || node.longitude === undefined ? {} : { latitude: node.latitude, longitude: node.longitude }),
    ...(node.uplinkBitsPerSecond === undefined ? {} : { uplinkGbitPerSecond: gbit(node.uplinkBitsPerSecond) }),
    ...(capacity === undefined
      ? {}
      : {
          peakEgressGbitPerSecond1s: gbit(capacity.peakEgressBitsPerSecond1s),
          peakEgressGbitPerSecond60s: gbit(capacity.peakEgressBitsPerSecond60s),
          peakRequestsPerSecond: capacity.peakRequestsPerSecond,
          storedBytesPeak: capacity.storedBytesPeak,
        }),
  };
}

/** The capacity figures (docs/capacity.md), and the edge caches closest to their uplink (spec 1.1): the capacity planner's first look. */
function capacitySummary(result: RunResult, edges: readonly NodeFiguresRow[]): CapacitySummary {
  const measuredSeconds = result.upstream?.measuredSeconds ?? measuredWholeSeconds(result.warmup.simulatedMs, result.simulatedMs);
  const pops = popsCapacity(edges);
  const regionals = result.upstream ? regionalsCapacity(result.upstream, result.regionals.map((site) => site.name), measuredSeconds) : undefined;
  const rows = edges.flatMap((edge): BusiestPop[] => {
    if (edge.peakEgressGbitPerSecond1s === undefined || edge.peakEgressGbitPerSecond60s === undefined || edge.requests === 0) return [];
    const uplink = edge.uplinkGbitPerSecond;
    return [
      {
        name: edge.name,
        ...(edge.region === undefined ? {} : { region: edge.region }),
        ...(uplink === undefined ? {} : { uplinkGbitPerSecond: uplink }),
        peakEgressGbitPerSecond1s: edge.peakEgressGbitPerSecond1s,
        ...(uplink === undefined ? {} : { uplinkShare1s: round(edge.peakEgressGbitPerSecond1s / uplink, 6) }),
        peakEgressGbitPerSecond60s: edge.peakEgressGbitPerSecond60s,
        ...(uplink === undefined ? {} : { uplinkShare60s: round(edge.peakEgressGbitPerSecond60s / uplink, 6) }),
        peakRequestsPerSecond: edge.peakRequestsPerSecond ?? 0,
      },
    ];
  });
  return {
    edgeCapacityBytes: result.scenario.edge.capacity,
    measuredSeconds,
    ...(result.upstream ? { origin: originCapacity(result.upstream.origin, measuredSeconds) } : {}),
    ...(pops ? { pops } : {}),
    ...(regionals ? { regionals } : {}),
    busiest: busiestOrder(rows).slice(0, CAPACITY_ROWS),
  };
}

/** The summary as written to summary.json: two-space indented, trailing newline. */
export function summaryJson(summary: Summary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}

function trafficModelFigures(facts: ModelClassFacts): TrafficModelFigures {
  const { name, ...rest } = facts;
  // The start's objects (the stacks', and the settling's) are made before the run's first request: the share counts the draws after it.
  const drawsAfterStacks = facts.createdObjects - facts.startObjects + facts.sharedObjects;
  return { class: name, ...rest, sharedShare: round(ratio(facts.sharedObjects, drawsAfterStacks), 6) };
}

function browserHitRatioOf(browser: NodeFigures | undefined): { browserHitRatio?: number } {
  return browser === undefined ? {} : { browserHitRatio: round(ratio(browser.hits, browser.requests), 6) };
}
