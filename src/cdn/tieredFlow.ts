import type { CacheStore } from '../cache/cacheStore.js';
import { popTransferTimeMs } from '../topology/bandwidth.js';
import type { TopologyLatencyModel } from '../topology/latencyModel.js';
import type { ClientRequest } from '../workload/request.js';
import type { LayerFreshness } from './classFreshness.js';

/** Layers of the tiered flow with the regional tier on, in the order a request passes them (spec 4.9). */
export const TIERED_LAYERS = ['edge', 'regional', 'origin'] as const;
/** Layers with the regional tier off: PoPs go straight to the origin. */
export const UNTIERED_LAYERS = ['edge', 'origin'] as const;

/** Where and how fast a request was answered; reused between requests. */
export interface TieredOutcome {
  /** Index into the flow's `layers`. */
  layer: number;
  latencyMs: number;
  /** The PoP the request reached. */
  edge: number;
  /** The regional site an edge miss went to; −1 on an edge hit or with the tier off. */
  regional: number;
  /**
   * Time to send the body through the PoP's uplink after the first byte, ms (spec 1.1:
   * 100 Gbit/s at major PoPs), reported apart from the time to first byte; −1 when the flow
   * has no uplinks (the regions model).
   */
  transferMs: number;
}

/** What runs drive: a flow's layers in request order, and one request served at a time. */
export interface RequestFlow {
  readonly layers: readonly string[];
  serve(request: ClientRequest, outcome: TieredOutcome): void;
}

/**
 * The request flow on the PoP topology: a client's request is routed to a PoP (anycast,
 * src/topology/routing.ts); an edge miss goes to the PoP's regional site (spec 4.9 layer 3)
 * and a regional miss to the origin (layer 4). On the way back each layer stores the
 * response when the policy engine's compiled decision for that layer and the object's class says so, fresh for
 * its TTL, less the age the copy already has at the regional site. Time to first byte is the sum of the hops taken (TopologyLatencyModel).
 * Revalidation, stale serving, coalescing and the browser layer belong to the layered flow
 * that will grow out of this class.
 */
export class TieredFlow implements RequestFlow {
  readonly layers: readonly string[];
  private readonly tiered: boolean;
  private readonly originLayer: number;
  /** Per PoP: ms per byte through its uplink. */
  private readonly uplinkMsPerByte: Float64Array;

  constructor(
    private readonly edges: readonly CacheStore[],
    /** One cache per regional site; empty with the tier off. */
    private readonly regionals: readonly CacheStore[],
    private readonly latency: TopologyLatencyModel,
    private readonly edgeFreshness: LayerFreshness,
    private readonly regionalFreshness: LayerFreshness,
    /** Class id per object id (content classes); null: every object is class 0. */
    private readonly classOf: Uint8Array | null = null,
  ) {
    const { pops, regionalTier } = latency.topology;
    if (edges.length !== pops.length) throw new Error(`the topology has ${pops.length} PoPs but ${edges.length} edge caches were given`);
    this.tiered = regionalTier.enabled;
    const sites = this.tiered ? regionalTier.sites.length : 0;
    if (regionals.length !== sites) throw new Error(`the topology has ${sites} regional sites but ${regionals.length} regional caches were given`);
    this.layers = this.tiered ? TIERED_LAYERS : UNTIERED_LAYERS;
    this.originLayer = this.layers.length - 1;
    this.uplinkMsPerByte = Float64Array.from(pops, (pop) => popTransferTimeMs(1, pop.sizeClass));
  }

  serve(request: ClientRequest, outcome: TieredOutcome): void {
    const latency = this.latency;
    const place = request.place >= 0 ? request.place : latency.samplePlace(request.region);
    const pop = latency.route(place);
    let latencyMs = latency.clientToPopMs(place, pop, latency.sampleMobile(place));
    outcome.edge = pop;
    outcome.regional = -1;
    const edge = this.edges[pop];
    const key = request.objectId;
    const nowMs = request.timeMs;
    const c = this.classOf === null ? 0 : this.classOf[key];
    const storeAtEdge = this.edgeFreshness.store[c] === 1;
    const edgeTtlMs = this.edgeFreshness.ttlMs[c];
    if (edge.lookup(key, nowMs)) {
      outcome.layer = 0;
    } else if (this.tiered) {
      const site = latency.regionalSiteOf(pop);
      outcome.regional = site;
      latencyMs += latency.popToRegionalMs(pop);
      const regional = this.regionals[site];
      const regionalTtlMs = this.regionalFreshness.ttlMs[c];
      let edgeExpiresAtMs = nowMs + edgeTtlMs;
      if (regional.lookup(key, nowMs)) {
        outcome.layer = 1;
        // RFC 9111 §4.2.3: the response reaches the edge with the age it has at the regional
        // site, and that age counts against the edge's freshness lifetime too.
        if (regionalTtlMs !== Infinity) edgeExpiresAtMs = regional.expiryOf(key) - regionalTtlMs + edgeTtlMs;
      } else {
        latencyMs += latency.regionalToOriginMs(site);
        if (this.regionalFreshness.store[c] === 1) regional.insert(key, request.sizeBytes, nowMs + regionalTtlMs);
        outcome.layer = this.originLayer;
      }
      if (storeAtEdge && edgeExpiresAtMs > nowMs) edge.insert(key, request.sizeBytes, edgeExpiresAtMs);
    } else {
      latencyMs += latency.popToOriginMs(pop);
      if (storeAtEdge) edge.insert(key, request.sizeBytes, nowMs + edgeTtlMs);
      outcome.layer = this.originLayer;
    }
    outcome.latencyMs = latencyMs;
    outcome.transferMs = request.sizeBytes * this.uplinkMsPerByte[pop];
  }
}
