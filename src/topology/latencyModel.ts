import type { RandomStream, RandomStreams } from '../sim/random.js';
import { UserError } from '../userError.js';
import { placeFor } from './clients.js';
import { greatCircleKm } from './geo.js';
import { propagationRttMs } from './latencyParameters.js';
import { REGIONS } from './regions.js';
import { nearestPop, routedPops, Router } from './routing.js';
import type { Topology } from './topology.js';

/**
 * The physical latency model (spec 4.9's layers on a map). Time to first byte is the sum
 * of the hops a request takes:
 *
 *   edge hit      = client → PoP round trip + last mile + PoP processing
 *   regional hit  = edge hit + PoP → regional round trip + regional processing
 *   origin fetch  = regional hit path + regional → origin round trip + origin service
 *                   (with the regional tier off: edge hit + PoP → origin + origin service)
 *
 * Everything deterministic is precomputed per client place, PoP and site, so a sample is a
 * few array reads, one uniform draw (mobile or not) and one lognormal draw. Draws come
 * from named streams of the run's RandomStreams, one per concern, so turning misrouting on
 * does not shift the last-mile draws.
 *
 * The layered flow (src/cdn/flowNetwork.ts, layeredFlow.ts) takes the hops one by one, as a request takes them.
 */
export class TopologyLatencyModel {
  private readonly router: Router;
  /** Per PoP, 1 when normal routing sends it requests (routedPops). */
  readonly routedPops: Uint8Array;
  private readonly placeStream: RandomStream;
  private readonly lastMileStream: RandomStream;
  private readonly originStream: RandomStream;
  private readonly popCount: number;
  private readonly accessRttMs: Float64Array;
  /**
   * Per place: its nearest PoP and the round trip to it, the row of accessRttMs almost every
   * request reads (all of them without misrouting). 277 places' worth stays in the CPU cache
   * where the whole place × PoP matrix (750 kB at 339 PoPs) did not (issue 27).
   */
  private readonly nearestPop: Int32Array;
  private readonly nearestRttMs: Float64Array;
  private readonly placeRegion: Int8Array;
  /** Per region index: fixed-line and mobile last-mile medians, mobile share. */
  private readonly fixedMedianMs: Float64Array;
  private readonly mobileMedianMs: Float64Array;
  private readonly mobileShare: Float64Array;
  private readonly lastMileSigma: number;
  private readonly edgeProcessingMs: number;
  private readonly originMedianMs: number;
  private readonly originSigma: number;
  private readonly regionalOfPop: Int32Array;
  /** Per PoP: round trip to its regional site + regional processing (0 with the tier off). */
  private readonly popToRegionalFixedMs: Float64Array;
  /** Per regional site: round trip to its origin. */
  private readonly regionalToOriginRttMs: Float64Array;
  /** Per PoP: round trip straight to its origin. */
  private readonly popToOriginRttMs: Float64Array;

  constructor(
    readonly topology: Topology,
    streams: RandomStreams,
  ) {
    const { pops, regionalTier, origins, latency, clients, routing } = topology;
    this.router = new Router(routing, topology.routingParameters, streams.stream('topology.routing'));
    this.routedPops = routedPops(routing, topology.routingParameters, clients.demand);
    this.placeStream = streams.stream('topology.clients');
    this.lastMileStream = streams.stream('topology.lastMile');
    this.originStream = streams.stream('topology.origin');
    this.popCount = routing.popCount;
    this.accessRttMs = routing.accessRttMs;
    this.nearestPop = Int32Array.from({ length: routing.placeCount }, (_, place) => nearestPop(routing, place));
    this.nearestRttMs = Float64Array.from(this.nearestPop, (pop, place) => routing.accessRttMs[place * routing.popCount + pop]);
    this.placeRegion = clients.regionOf;
    this.fixedMedianMs = Float64Array.from(REGIONS, (region) => latency.lastMileMedianMs[region]);
    this.mobileMedianMs = this.fixedMedianMs.map((median) => median * latency.mobileLastMileFactor);
    this.mobileShare = topology.mobileShare;
    this.lastMileSigma = latency.lastMileSigma;
    this.edgeProcessingMs = latency.edgeProcessingMs;
    this.originMedianMs = latency.originServiceMedianMs;
    this.originSigma = latency.originServiceSigma;
    const backbone = (km: number) => propagationRttMs(km, latency.backboneRouteInflation, latency.fibreKmPerMs);
    this.regionalOfPop = regionalTier.siteOfPop;
    this.regionalToOriginRttMs = Float64Array.from(regionalTier.sites, (site, s) => backbone(greatCircleKm(site, origins[topology.originOfRegional[s]])));
    this.popToOriginRttMs = Float64Array.from(pops, (pop, p) => backbone(greatCircleKm(pop, origins[topology.originOfPop[p]])));
    this.popToRegionalFixedMs = Float64Array.from(pops, (pop, p) =>
      regionalTier.enabled ? backbone(greatCircleKm(pop, regionalTier.sites[regionalTier.siteOfPop[p]])) + latency.regionalProcessingMs : 0,
    );
  }

  /** A client place of region `r` (index into REGIONS), drawn by population. */
  samplePlace(r: number): number {
    const place = placeFor(this.topology.clients, r, this.placeStream.next());
    if (place < 0) throw new UserError(`topology: requests come from ${REGIONS[r] ?? `region ${r}`} but the topology has no client places there`);
    return place;
  }

  /** The PoP a request from `place` reaches (nearest by RTT, or misrouted). */
  route(place: number): number {
    return this.router.route(place);
  }

  /** Whether a request from `place` comes from a mobile device (the region's mobile share). */
  sampleMobile(place: number): boolean {
    return this.lastMileStream.next() < this.mobileShare[this.placeRegion[place]];
  }

  /** Time to first byte of an edge hit: client ↔ PoP round trip + last mile + PoP processing. */
  clientToPopMs(place: number, pop: number, mobile: boolean): number {
    const r = this.placeRegion[place];
    const lastMile = this.lastMileStream.lognormal(mobile ? this.mobileMedianMs[r] : this.fixedMedianMs[r], this.lastMileSigma);
    const rttMs = pop === this.nearestPop[place] ? this.nearestRttMs[place] : this.accessRttMs[place * this.popCount + pop];
    return rttMs + lastMile + this.edgeProcessingMs;
  }

  /** What a regional hit adds to the edge path: PoP ↔ regional round trip + regional processing. 0 with the tier off. */
  popToRegionalMs(pop: number): number {
    return this.popToRegionalFixedMs[pop];
  }

  /** The regional site a PoP's misses go to; −1 with the tier off. */
  regionalSiteOf(pop: number): number {
    return this.regionalOfPop[pop];
  }

  /** What an origin fetch adds to the regional path: regional ↔ origin round trip + origin service time. */
  regionalToOriginMs(site: number): number {
    return this.regionalToOriginRttMs[site] + this.originServiceMs();
  }

  /** What an origin fetch adds to the edge path when it skips the regional tier: PoP ↔ origin + service time. */
  popToOriginMs(pop: number): number {
    return this.popToOriginRttMs[pop] + this.originServiceMs();
  }

  /** Round trip between a regional site and its origin, ms (no service time). */
  regionalOriginRttMs(site: number): number {
    return this.regionalToOriginRttMs[site];
  }

  /** Round trip between a PoP and its origin, ms (no service time): the path with the regional tier off. */
  popOriginRttMs(pop: number): number {
    return this.popToOriginRttMs[pop];
  }

  /** Origin service time: application work until its first byte (lognormal). */
  originServiceMs(): number {
    return this.originStream.lognormal(this.originMedianMs, this.originSigma);
  }
}
