import type { RandomStream } from '../sim/random.js';
import { UserError } from '../userError.js';
import { haversineKm, type LatLon } from './geo.js';
import { propagationRttMs, type LatencyParameters } from './latencyParameters.js';

/**
 * Anycast routing: a client reaches the PoP with the lowest modelled round trip (DESIGN.md
 * "A request's journey", step 3). Real anycast follows BGP, not latency, and sends a share
 * of clients elsewhere (Calder et al., "Analyzing the performance of an anycast CDN", IMC
 * 2015, find a minority of clients reaching a front-end other than their lowest-latency
 * one); `misrouteProbability` models that: such a request goes to one of the next
 * `misrouteCandidates` PoPs by RTT, uniformly.
 */
export interface RoutingParameters {
  /** Probability that a request is routed to a PoP other than the nearest. Default 0. */
  readonly misrouteProbability: number;
  /** How many next-nearest PoPs a misrouted request may land on. Default 4. */
  readonly misrouteCandidates: number;
}

export const DEFAULT_ROUTING_PARAMETERS: RoutingParameters = { misrouteProbability: 0, misrouteCandidates: 4 };

/**
 * Precomputed per client place: the network RTT to every PoP and the PoPs ranked by it,
 * so routing a request costs an array read (and two draws when misrouting is on).
 */
export interface RoutingTable {
  readonly placeCount: number;
  readonly popCount: number;
  /** Propagation round trip place → PoP, ms, at `accessRttMs[place * popCount + pop]`. */
  readonly accessRttMs: Float64Array;
  /** Per place, `stride` PoPs by increasing RTT: the nearest, then the misrouting candidates. */
  readonly ranked: Int32Array;
  readonly stride: number;
}

export function checkRoutingParameters(parameters: RoutingParameters): void {
  const p = parameters.misrouteProbability;
  if (!(p >= 0 && p <= 1)) throw new UserError(`routing.misrouteProbability: expected a probability from 0 to 1, got ${p}`);
  const k = parameters.misrouteCandidates;
  if (!Number.isInteger(k) || k < 1) throw new UserError(`routing.misrouteCandidates: expected a whole number ≥ 1, got ${k}`);
}

export function buildRoutingTable(
  places: readonly LatLon[],
  pops: readonly LatLon[],
  latency: LatencyParameters,
  routing: RoutingParameters,
): RoutingTable {
  checkRoutingParameters(routing);
  const placeCount = places.length;
  const popCount = pops.length;
  if (popCount === 0) throw new UserError('routing: a topology needs at least one PoP');
  const accessRttMs = new Float64Array(placeCount * popCount);
  const stride = Math.min(popCount, 1 + routing.misrouteCandidates);
  const ranked = new Int32Array(placeCount * stride);
  const order = new Int32Array(popCount);
  for (let place = 0; place < placeCount; place++) {
    const { lat, lon } = places[place];
    const row = place * popCount;
    for (let pop = 0; pop < popCount; pop++) {
      accessRttMs[row + pop] = propagationRttMs(haversineKm(lat, lon, pops[pop].lat, pops[pop].lon), latency.accessRouteInflation, latency.fibreKmPerMs);
      order[pop] = pop;
    }
    // Ties go to the PoP listed first, so routing does not depend on sort stability.
    const sorted = Array.from(order).sort((a, b) => accessRttMs[row + a] - accessRttMs[row + b] || a - b);
    for (let j = 0; j < stride; j++) ranked[place * stride + j] = sorted[j];
  }
  return { placeCount, popCount, accessRttMs, ranked, stride };
}

/** The nearest PoP of a place (by modelled RTT). */
export function nearestPop(table: RoutingTable, place: number): number {
  return table.ranked[place * table.stride];
}

/**
 * Per PoP, 1 when anycast can send it requests: it is the nearest of a place with demand, or,
 * with misrouting on, one of such a place's next-nearest. The others never see a request in
 * normal routing (docs/topology.md, "PoPs without traffic"); only an incident's rerouting reaches them.
 */
export function routedPops(table: RoutingTable, parameters: RoutingParameters, demand: Float64Array): Uint8Array {
  const routed = new Uint8Array(table.popCount);
  const reach = 1 + misrouteAlternates(table, parameters);
  for (let place = 0; place < table.placeCount; place++) {
    if (!(demand[place] > 0)) continue;
    for (let j = 0; j < reach; j++) routed[table.ranked[place * table.stride + j]] = 1;
  }
  return routed;
}

/**
 * How many PoPs past its nearest a place's requests may be misrouted to (the Router's rule):
 * its ranked alternates when misrouting is on, none when it is off or there is no other PoP.
 */
function misrouteAlternates(table: RoutingTable, parameters: RoutingParameters): number {
  return parameters.misrouteProbability > 0 ? table.stride - 1 : 0;
}

/** Routes requests of client places to PoPs, misrouting a share of them with a seeded stream. */
export class Router {
  private readonly misrouteProbability: number;
  private readonly alternates: number;

  constructor(
    readonly table: RoutingTable,
    parameters: RoutingParameters,
    private readonly stream: RandomStream,
  ) {
    checkRoutingParameters(parameters);
    this.alternates = misrouteAlternates(table, parameters);
    this.misrouteProbability = this.alternates > 0 ? parameters.misrouteProbability : 0;
  }

  /** The PoP a request from `place` reaches. Draws from the stream only when misrouting is on. */
  route(place: number): number {
    const base = place * this.table.stride;
    if (this.misrouteProbability > 0 && this.stream.next() < this.misrouteProbability) {
      return this.table.ranked[base + 1 + this.stream.int(this.alternates)];
    }
    return this.table.ranked[base];
  }
}
