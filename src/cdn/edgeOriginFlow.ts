import type { CacheStore } from '../cache/cacheStore.js';
import type { LatencyModel } from '../topology/regionLatency.js';
import type { ClientRequest } from '../workload/request.js';
import { uniformFreshness, type LayerFreshness } from './classFreshness.js';
import { pieceBytes } from './tieredFlow.js';

/** Layers a request can be served by in this flow, in the order it passes them (spec 4.9). */
export const EDGE_ORIGIN_LAYERS = ['edge', 'origin'] as const;
export const EDGE_LAYER = 0;
export const ORIGIN_LAYER = 1;

/** Where and how fast a request was answered; reused between requests. */
export interface ServeOutcome {
  layer: number;
  latencyMs: number;
  /** The edge node the request went to. */
  edge: number;
  /** Age of the response when it leaves the CDN, ms (TieredOutcome.ageMs). */
  ageMs: number;
}

/**
 * The first request flow: a client's request goes to its edge cache (spec 4.9 layer 2);
 * a miss goes to the origin (layer 4) and the response is stored at the edge when the
 * policy engine says so for the object's class, fresh for the TTL it assigned. Revalidation, stale serving and the
 * other layers belong to the layered flow that replaces this class. The object is stored
 * when the request is handled, as trace-driven simulators do.
 */
export class EdgeOriginFlow {
  readonly layers: readonly string[] = EDGE_ORIGIN_LAYERS;
  constructor(
    private readonly edges: readonly CacheStore[],
    private readonly latency: LatencyModel,
    private readonly freshness: LayerFreshness = uniformFreshness(true, Infinity),
    /** Class id per object id (content classes); null: every object is class 0. */
    private readonly classOf: Uint8Array | null = null,
  ) {
    if (edges.length !== latency.edgeCount) {
      throw new Error(`the latency model routes to ${latency.edgeCount} edges but ${edges.length} caches were given`);
    }
  }

  serve(request: ClientRequest, outcome: ServeOutcome): void {
    const edgeIndex = this.latency.edgeFor(request.region);
    const edge = this.edges[edgeIndex];
    let latencyMs = this.latency.clientToEdgeMs(request.region);
    const c = this.classOf === null ? 0 : this.classOf[request.objectId];
    const ttlMs = this.freshness.ttlMs[c];
    const store = this.freshness.store[c] === 1;
    // spec 4.8: a range needs every chunk it touches; one missing chunk sends it to the origin.
    let layer = EDGE_LAYER;
    for (let i = 0; i < request.pieces; i++) {
      const key = request.key + i;
      if (edge.lookup(key, request.timeMs)) continue;
      if (store) edge.insert(key, pieceBytes(request, i), request.timeMs + ttlMs);
      layer = ORIGIN_LAYER;
    }
    if (layer === ORIGIN_LAYER) latencyMs += this.latency.edgeToOriginMs(edgeIndex);
    // As TieredFlow: only a client's own cache counts the age, so only its requests pay the lookup.
    outcome.ageMs =
      layer === EDGE_LAYER && request.pieces === 1 && request.clientSlot >= 0 && ttlMs !== Infinity ? request.timeMs - (edge.expiryOf(request.key) - ttlMs) : 0;
    outcome.layer = layer;
    outcome.latencyMs = latencyMs;
    outcome.edge = edgeIndex;
  }
}
