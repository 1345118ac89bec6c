import type { CacheStore } from '../cache/cacheStore.js';
import type { LatencyModel } from '../topology/regionLatency.js';
import type { ClientRequest } from '../workload/request.js';

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
}

/** The edge's compiled policy decision for the content (src/policy/compile.ts). */
export interface EdgeFreshness {
  /** Does the edge store the response at all. */
  readonly store: boolean;
  /** How long a stored copy is served without the origin; Infinity never expires. */
  readonly ttlMs: number;
}

/**
 * The first request flow: a client's request goes to its edge cache (spec 4.9 layer 2);
 * a miss goes to the origin (layer 4) and the response is stored at the edge when the
 * policy engine says so, fresh for the TTL it assigned. Revalidation, stale serving and the
 * other layers belong to the layered flow that replaces this class. The object is stored
 * when the request is handled, as trace-driven simulators do.
 */
export class EdgeOriginFlow {
  private readonly storeAtEdge: boolean;
  private readonly ttlMs: number;

  constructor(
    private readonly edges: readonly CacheStore[],
    private readonly latency: LatencyModel,
    freshness: EdgeFreshness = { store: true, ttlMs: Infinity },
  ) {
    // A copy with no freshness left would only be revalidated, which this flow does not model: not storing it is the same.
    this.storeAtEdge = freshness.store && freshness.ttlMs > 0;
    this.ttlMs = freshness.ttlMs;
    if (edges.length !== latency.edgeCount) {
      throw new Error(`the latency model routes to ${latency.edgeCount} edges but ${edges.length} caches were given`);
    }
  }

  serve(request: ClientRequest, outcome: ServeOutcome): void {
    const edgeIndex = this.latency.edgeFor(request.region);
    const edge = this.edges[edgeIndex];
    let latencyMs = this.latency.clientToEdgeMs(request.region);
    if (edge.lookup(request.objectId, request.timeMs)) {
      outcome.layer = EDGE_LAYER;
    } else {
      latencyMs += this.latency.edgeToOriginMs(edgeIndex);
      if (this.storeAtEdge) edge.insert(request.objectId, request.sizeBytes, request.timeMs + this.ttlMs);
      outcome.layer = ORIGIN_LAYER;
    }
    outcome.latencyMs = latencyMs;
    outcome.edge = edgeIndex;
  }
}
