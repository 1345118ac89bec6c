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

/**
 * The first request flow: a client's request goes to its edge cache (spec 4.9 layer 2);
 * a miss goes to the origin (layer 4) and the response is stored at the edge. Every
 * response is stored without expiry here: which responses may be stored and for how long
 * is the policy engine's to say (spec 4.1), and the layered flow replaces this class.
 * The object is stored when the request is handled, as trace-driven simulators do.
 */
export class EdgeOriginFlow {
  constructor(
    private readonly edges: readonly CacheStore[],
    private readonly latency: LatencyModel,
  ) {
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
      edge.insert(request.objectId, request.sizeBytes, Infinity);
      outcome.layer = ORIGIN_LAYER;
    }
    outcome.latencyMs = latencyMs;
    outcome.edge = edgeIndex;
  }
}
