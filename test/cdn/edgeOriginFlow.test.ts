import { describe, expect, it } from 'vitest';
import { EDGE_LAYER, EDGE_ORIGIN_LAYERS, EdgeOriginFlow, ORIGIN_LAYER, type ServeOutcome } from '../../src/cdn/edgeOriginFlow.js';
import { LruStore } from '../../src/cache/lru.js';
import type { LatencyModel } from '../../src/topology/regionLatency.js';
import { RegionLatencyModel } from '../../src/topology/regionLatency.js';
import { newClientRequest, type ClientRequest } from '../../src/workload/request.js';
import { RandomStreams } from '../../src/sim/random.js';
import { REGIONS } from '../../src/topology/regions.js';

/** Fixed latencies: 20 ms client → edge, 100 ms edge → origin → edge; records origin fetches per edge. */
class StubLatency implements LatencyModel {
  readonly edgeCount: number;
  readonly edgeNames: readonly string[];
  readonly originFetchesByEdge: number[];

  constructor(private readonly single: boolean) {
    this.edgeCount = single ? 1 : 5;
    this.edgeNames = single ? ['global'] : [...REGIONS];
    this.originFetchesByEdge = new Array<number>(this.edgeCount).fill(0);
  }

  edgeFor(region: number): number {
    return this.single ? 0 : region;
  }

  clientToEdgeMs(_region: number): number {
    return 20;
  }

  edgeToOriginMs(edge: number): number {
    this.originFetchesByEdge[edge]++;
    return 100;
  }
}

const caches = (n: number, capacity = 1_000_000) => Array.from({ length: n }, () => new LruStore({ capacity, keySpace: 64 }));

/** A whole-object request (key = object id) served; the outcome without its age. */
function serve(flow: EdgeOriginFlow, request: Pick<ClientRequest, 'timeMs' | 'region' | 'objectId' | 'sizeBytes'>): Omit<ServeOutcome, 'ageMs'> {
  const outcome: ServeOutcome = { layer: -1, latencyMs: -1, edge: -1, ageMs: -1 };
  flow.serve({ ...newClientRequest(), ...request, key: request.objectId, objectBytes: request.sizeBytes }, outcome);
  return { layer: outcome.layer, latencyMs: outcome.latencyMs, edge: outcome.edge };
}

describe('EdgeOriginFlow', () => {
  it('layer constants: [edge, origin] with edge 0 and origin 1', () => {
    expect(EDGE_ORIGIN_LAYERS).toEqual(['edge', 'origin']);
    expect(EDGE_LAYER).toBe(0);
    expect(ORIGIN_LAYER).toBe(1);
  });

  it('the first request for an object is served by the origin in 120 ms, the second by the edge in 20 ms', () => {
    const edges = caches(5);
    const flow = new EdgeOriginFlow(edges, new StubLatency(false));
    expect(serve(flow, { timeMs: 0, region: 0, objectId: 42, sizeBytes: 5_000 })).toEqual({ layer: ORIGIN_LAYER, latencyMs: 120, edge: 0 });
    expect(serve(flow, { timeMs: 10, region: 0, objectId: 42, sizeBytes: 5_000 })).toEqual({ layer: EDGE_LAYER, latencyMs: 20, edge: 0 });
    // The response was stored with its size and no expiry.
    expect(edges[0].occupancy).toBe(5_000);
    expect(edges[0].objectCount).toBe(1);
    expect(serve(flow, { timeMs: 1e12, region: 0, objectId: 42, sizeBytes: 5_000 })).toEqual({ layer: EDGE_LAYER, latencyMs: 20, edge: 0 });
  });

  it('routing: a request from region 3 uses edge 3 only; region 1 then misses on its own edge', () => {
    const edges = caches(5);
    const latency = new StubLatency(false);
    const flow = new EdgeOriginFlow(edges, latency);
    expect(serve(flow, { timeMs: 0, region: 3, objectId: 7, sizeBytes: 800 }).layer).toBe(ORIGIN_LAYER);
    expect(edges.map((edge) => edge.contains(7, 0))).toEqual([false, false, false, true, false]);
    expect(edges.map((edge) => edge.occupancy)).toEqual([0, 0, 0, 800, 0]);
    expect(latency.originFetchesByEdge).toEqual([0, 0, 0, 1, 0]);
    expect(serve(flow, { timeMs: 1, region: 1, objectId: 7, sizeBytes: 800 })).toEqual({ layer: ORIGIN_LAYER, latencyMs: 120, edge: 1 });
    expect(serve(flow, { timeMs: 2, region: 3, objectId: 7, sizeBytes: 800 })).toEqual({ layer: EDGE_LAYER, latencyMs: 20, edge: 3 });
    expect(latency.originFetchesByEdge).toEqual([0, 1, 0, 1, 0]);
  });

  it('with a single-edge latency model (edgeCount 1) every region shares one cache: region 4 hits what region 0 fetched', () => {
    const edges = caches(1);
    const latency = new StubLatency(true);
    const flow = new EdgeOriginFlow(edges, latency);
    expect(serve(flow, { timeMs: 0, region: 0, objectId: 9, sizeBytes: 100 }).layer).toBe(ORIGIN_LAYER);
    for (const region of [1, 2, 3, 4]) {
      expect(serve(flow, { timeMs: region, region, objectId: 9, sizeBytes: 100 })).toEqual({ layer: EDGE_LAYER, latencyMs: 20, edge: 0 });
    }
    expect(latency.originFetchesByEdge).toEqual([1]);
    expect(edges[0].objectCount).toBe(1);
  });

  it('an object larger than the edge cache is fetched from the origin every time', () => {
    const flow = new EdgeOriginFlow(caches(5, 1_000), new StubLatency(false));
    for (let t = 0; t < 3; t++) {
      expect(serve(flow, { timeMs: t, region: 2, objectId: 1, sizeBytes: 1_001 })).toEqual({ layer: ORIGIN_LAYER, latencyMs: 120, edge: 2 });
    }
  });

  it('LRU at the edge: with room for two 400-byte objects, A B C A gives origin ×4 (A was evicted by C)', () => {
    const flow = new EdgeOriginFlow(caches(5, 800), new StubLatency(false));
    const layers = [1, 2, 3, 1].map((objectId, t) => serve(flow, { timeMs: t, region: 0, objectId, sizeBytes: 400 }).layer);
    expect(layers).toEqual([ORIGIN_LAYER, ORIGIN_LAYER, ORIGIN_LAYER, ORIGIN_LAYER]);
    const again = new EdgeOriginFlow(caches(5, 800), new StubLatency(false));
    const withHit = [1, 2, 1, 3, 1].map((objectId, t) => serve(again, { timeMs: t, region: 0, objectId, sizeBytes: 400 }).layer);
    expect(withHit).toEqual([ORIGIN_LAYER, ORIGIN_LAYER, EDGE_LAYER, ORIGIN_LAYER, EDGE_LAYER]);
  });

  it('constructing with a number of caches other than the model\'s edge count throws', () => {
    expect(() => new EdgeOriginFlow(caches(4), new StubLatency(false))).toThrow('the latency model routes to 5 edges but 4 caches were given');
    expect(() => new EdgeOriginFlow(caches(5), new StubLatency(true))).toThrow('the latency model routes to 1 edges but 5 caches were given');
    expect(() => new EdgeOriginFlow(caches(0), new StubLatency(true))).toThrow('the latency model routes to 1 edges but 0 caches were given');
  });

  it('with RegionLatencyModel (no jitter, per-region edges): a miss costs median + origin, a hit the median', () => {
    const model = new RegionLatencyModel(
      { regionNames: REGIONS, clientToEdgeMedianMs: [17, 21, 25, 30, 38], jitterSigma: 0, originLatencyMs: 90, edgeSites: 'per-region' },
      new RandomStreams(1).stream('latency'),
    );
    const flow = new EdgeOriginFlow(caches(5), model);
    expect(serve(flow, { timeMs: 0, region: 4, objectId: 3, sizeBytes: 10 })).toEqual({ layer: ORIGIN_LAYER, latencyMs: 128, edge: 4 });
    expect(serve(flow, { timeMs: 1, region: 4, objectId: 3, sizeBytes: 10 })).toEqual({ layer: EDGE_LAYER, latencyMs: 38, edge: 4 });
    expect(serve(flow, { timeMs: 2, region: 0, objectId: 3, sizeBytes: 10 })).toEqual({ layer: ORIGIN_LAYER, latencyMs: 107, edge: 0 });
  });
});
