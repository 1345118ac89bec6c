import type { CacheStore } from '../cache/cacheStore.js';
import { CHUNK_SIZE_BYTES } from '../policy/ranges.js';
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
  /**
   * Age of the response when it leaves the CDN (RFC 9111 §4.2.3: since the origin sent it),
   * ms: 0 from the origin; what a browser counts against its own freshness lifetime. 0 for
   * a range of several chunks and for a request without a client cache (clientSlot −1).
   */
  ageMs: number;
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
    const nowMs = request.timeMs;
    const c = this.classOf === null ? 0 : this.classOf[request.objectId];
    const site = this.tiered ? latency.regionalSiteOf(pop) : -1;
    // spec 4.8: a range needs each 5 MB chunk it touches; they are fetched side by side, so
    // the request waits for the one that has to come from furthest away.
    let deepest = this.servePiece(pop, site, request.key, pieceBytes(request, 0), c, nowMs);
    for (let i = 1; i < request.pieces; i++) {
      const layer = this.servePiece(pop, site, request.key + i, pieceBytes(request, i), c, nowMs);
      if (layer > deepest) deepest = layer;
    }
    outcome.edge = pop;
    outcome.regional = -1;
    if (deepest > 0) {
      if (this.tiered) {
        outcome.regional = site;
        latencyMs += latency.popToRegionalMs(pop);
        if (deepest === this.originLayer) latencyMs += latency.regionalToOriginMs(site);
      } else {
        latencyMs += latency.popToOriginMs(pop);
      }
    }
    outcome.layer = deepest;
    // Only a client's own cache counts the age; working it out for an edge hit costs a second
    // lookup, so anonymous requests and ranges skip it.
    outcome.ageMs = request.pieces !== 1 || request.clientSlot < 0 ? 0 : deepest === 0 ? this.edgeAgeMs(pop, request.key, c, nowMs) : this.pieceAgeMs;
    outcome.latencyMs = latencyMs;
    outcome.transferMs = request.sizeBytes * this.uplinkMsPerByte[pop];
  }

  /** Age (RFC 9111 §4.2.3) of the copy the last servePiece fetched from upstream, ms: since the origin sent it. */
  private pieceAgeMs = 0;

  /** Age of the PoP's stored copy of `key`: since the origin sent it (its expiry less the lifetime it was given). */
  private edgeAgeMs(pop: number, key: number, c: number, nowMs: number): number {
    const edgeTtlMs = this.edgeFreshness.ttlMs[c];
    return edgeTtlMs === Infinity ? 0 : nowMs - (this.edges[pop].expiryOf(key) - edgeTtlMs);
  }

  /**
   * One cache entry through the layers: the layer index that had it (or the origin), storing
   * it on the way back where the compiled decision for the class says so.
   */
  private servePiece(pop: number, site: number, key: number, bytes: number, c: number, nowMs: number): number {
    const edge = this.edges[pop];
    const edgeTtlMs = this.edgeFreshness.ttlMs[c];
    if (edge.lookup(key, nowMs)) return 0;
    const storeAtEdge = this.edgeFreshness.store[c] === 1;
    this.pieceAgeMs = 0;
    if (!this.tiered) {
      if (storeAtEdge) edge.insert(key, bytes, nowMs + edgeTtlMs);
      return this.originLayer;
    }
    const regional = this.regionals[site];
    const regionalTtlMs = this.regionalFreshness.ttlMs[c];
    let edgeExpiresAtMs = nowMs + edgeTtlMs;
    let layer = this.originLayer;
    if (regional.lookup(key, nowMs)) {
      layer = 1;
      // RFC 9111 §4.2.3: the response reaches the edge with the age it has at the regional
      // site, and that age counts against the edge's freshness lifetime too.
      if (regionalTtlMs !== Infinity) {
        const fetchedAtMs = regional.expiryOf(key) - regionalTtlMs;
        this.pieceAgeMs = nowMs - fetchedAtMs;
        edgeExpiresAtMs = fetchedAtMs + edgeTtlMs;
      }
    } else if (this.regionalFreshness.store[c] === 1) {
      regional.insert(key, bytes, nowMs + regionalTtlMs);
    }
    if (storeAtEdge && edgeExpiresAtMs > nowMs) edge.insert(key, bytes, edgeExpiresAtMs);
    return layer;
  }
}

/** Bytes of piece `i` of a request: the whole object, or a 5 MB chunk (the last one shorter), spec 4.8. */
export function pieceBytes(request: ClientRequest, i: number): number {
  if (request.firstChunk < 0) return request.objectBytes;
  const start = (request.firstChunk + i) * CHUNK_SIZE_BYTES;
  return Math.min(CHUNK_SIZE_BYTES, request.objectBytes - start);
}
