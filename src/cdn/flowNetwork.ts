import { popTransferTimeMs } from '../topology/bandwidth.js';
import type { TopologyLatencyModel } from '../topology/latencyModel.js';
import type { RegionLatencyModel } from '../topology/regionLatency.js';
import type { ClientRequest } from '../workload/request.js';

/**
 * The network a layered flow runs on: which PoP a request reaches and how long each hop
 * takes (spec 4.9). Every hop is a round trip; the flow spends half of it on the way up and
 * half on the way back, so a response reaches a layer (and is stored there) when it really
 * arrives, not when the client sent the request.
 *
 * Two models implement it: the PoP topology (PoPs on a map, a regional tier, physical
 * latency) and the regions model, which is a topology of one PoP per region (or one for
 * the world), no regional tier, and a fixed origin time.
 */
export interface FlowNetwork {
  readonly edgeCount: number;
  /** Regional sites; 0 when PoPs go straight to the origin. */
  readonly regionalCount: number;
  /** Routes `request` to a PoP and draws its client leg; read `clientLegMs` after. */
  route(request: ClientRequest): number;
  /** The PoP `request` reaches, without drawing a client leg: the cache-only warm-up's routing (src/cdn/cacheWarmer.ts). */
  popOf(request: ClientRequest): number;
  /** The client ↔ PoP round trip of the request routed last, with last mile and PoP processing: an edge hit's time to first byte. */
  readonly clientLegMs: number;
  /** The regional site a PoP's misses go to (−1 without a tier). */
  regionalOf(edge: number): number;
  /** PoP ↔ regional round trip with regional processing, ms. */
  edgeToRegionalMs(edge: number): number;
  /** Round trip from a cache node to the origin, ms: a regional site's with the tier on, else a PoP's. */
  originRttMs(node: number): number;
  /** Round trip from a PoP straight to the origin, ms: the path of a deployment without the CDN (spec 1.3). */
  directOriginRttMs(edge: number): number;
  /** The origin's service time for one request (before any slowdown), ms. */
  originServiceMs(): number;
  /** ms per byte through each PoP's uplink (spec 1.1), or null when the model has no uplinks. */
  readonly uplinkMsPerByte: Float64Array | null;
}

/** The PoP topology (src/topology): anycast routing, great-circle latency, the regional tier. */
export class TopologyNetwork implements FlowNetwork {
  readonly edgeCount: number;
  readonly regionalCount: number;
  readonly uplinkMsPerByte: Float64Array;
  clientLegMs = 0;
  private readonly tiered: boolean;

  constructor(private readonly latency: TopologyLatencyModel) {
    const { pops, regionalTier } = latency.topology;
    this.edgeCount = pops.length;
    this.tiered = regionalTier.enabled;
    this.regionalCount = this.tiered ? regionalTier.sites.length : 0;
    this.uplinkMsPerByte = Float64Array.from(pops, (pop) => popTransferTimeMs(1, pop.sizeClass));
  }

  route(request: ClientRequest): number {
    const latency = this.latency;
    const place = request.place >= 0 ? request.place : latency.samplePlace(request.region);
    const pop = latency.route(place);
    this.clientLegMs = latency.clientToPopMs(place, pop, latency.sampleMobile(place));
    return pop;
  }

  popOf(request: ClientRequest): number {
    const latency = this.latency;
    return latency.route(request.place >= 0 ? request.place : latency.samplePlace(request.region));
  }

  regionalOf(edge: number): number {
    return this.tiered ? this.latency.regionalSiteOf(edge) : -1;
  }

  edgeToRegionalMs(edge: number): number {
    return this.latency.popToRegionalMs(edge);
  }

  originRttMs(node: number): number {
    return this.tiered ? this.latency.regionalOriginRttMs(node) : this.latency.popOriginRttMs(node);
  }

  directOriginRttMs(edge: number): number {
    return this.latency.popOriginRttMs(edge);
  }

  originServiceMs(): number {
    return this.latency.originServiceMs();
  }
}

/**
 * The regions model as a topology: one PoP per region (or one for everyone), no regional
 * tier, and the fixed origin latency as the origin's service time over a link of no length,
 * so that a slowdown multiplies all of it.
 */
export class RegionNetwork implements FlowNetwork {
  readonly edgeCount: number;
  readonly regionalCount = 0;
  readonly uplinkMsPerByte = null;
  clientLegMs = 0;

  constructor(private readonly latency: RegionLatencyModel) {
    this.edgeCount = latency.edgeCount;
  }

  route(request: ClientRequest): number {
    this.clientLegMs = this.latency.clientToEdgeMs(request.region);
    return this.latency.edgeFor(request.region);
  }

  popOf(request: ClientRequest): number {
    return this.latency.edgeFor(request.region);
  }

  regionalOf(): number {
    return -1;
  }

  edgeToRegionalMs(): number {
    return 0;
  }

  originRttMs(): number {
    return 0;
  }

  directOriginRttMs(): number {
    return 0;
  }

  originServiceMs(): number {
    return this.latency.edgeToOriginMs(0);
  }
}
