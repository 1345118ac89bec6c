import { describe, expect, it } from 'vitest';
import { createCacheStore } from '../../src/cache/registry.js';
import { uniformFreshness } from '../../src/cdn/classFreshness.js';
import { TieredFlow, type TieredOutcome } from '../../src/cdn/tieredFlow.js';
import { RandomStreams } from '../../src/sim/random.js';
import { TopologyLatencyModel } from '../../src/topology/latencyModel.js';
import { newClientRequest, type ClientRequest } from '../../src/workload/request.js';
import { KM_PER_DEGREE, city, layout, pop } from '../topology/layouts.js';

/**
 * Two PoPs on the equator, the regional site at the first, the origin 40° east. Fixed
 * latencies (no last-mile or service spread) make every hop's cost exact.
 */
function flowOver(edgeTtlMs: number, regionalTtlMs: number, tier = true) {
  const topology = layout([pop('AAA', 0), pop('BBB', 10)], [city('Near A', 0), city('Near B', 10)], {
    regionalTier: { enabled: tier, sites: ['AAA'] },
    origins: [{ code: 'ORG', city: 'Origin', region: 'Africa', lat: 0, lon: 40 }],
    latency: { lastMileSigma: 0, mobileLastMileFactor: 1, originService: { median: '100ms', sigma: 0 } },
  });
  const latency = new TopologyLatencyModel(topology, new RandomStreams(1));
  const edges = topology.pops.map(() => createCacheStore('lru', { capacity: 1e9 }));
  const regionals = tier ? [createCacheStore('lru', { capacity: 1e9 })] : [];
  const flow = new TieredFlow(edges, regionals, latency, uniformFreshness(true, edgeTtlMs), uniformFreshness(true, regionalTtlMs));
  return { flow, edges, regionals, topology };
}

const request = (timeMs: number, objectId = 1): ClientRequest => ({ ...newClientRequest(), timeMs, region: 4, objectId, key: objectId, sizeBytes: 1000, objectBytes: 1000 });
const outcome = (): TieredOutcome => ({ layer: -1, latencyMs: 0, edge: -1, regional: -1, transferMs: -1, ageMs: -1 });

describe('TieredFlow: edge → regional → origin (spec 4.9)', () => {
  it('a cold request goes to the origin and is stored at the regional site and the PoP; the next one is an edge hit', () => {
    const { flow, edges, regionals } = flowOver(60_000, 60_000);
    const first = outcome();
    flow.serve(request(0), first);
    expect(first.layer).toBe(2);
    expect(regionals[0].contains(1, 1)).toBe(true);
    expect(edges[first.edge].contains(1, 1)).toBe(true);
    const second = outcome();
    flow.serve(request(10), second);
    expect(second.layer).toBe(0);
    expect(second.regional).toBe(-1);
    // The miss paid every hop the hit did, plus the regional and origin hops.
    expect(first.latencyMs).toBeGreaterThan(second.latencyMs + 100);
  });

  it('a miss at another PoP is a regional hit, at the hit path plus the PoP ↔ regional round trip and processing', () => {
    const { flow, topology } = flowOver(60_000, 60_000);
    const latency = new TopologyLatencyModel(topology, new RandomStreams(9));
    const served: TieredOutcome[] = [];
    // Requests alternate between the two places until both PoPs have been reached.
    for (let t = 0; t < 200 && new Set(served.map((o) => o.edge)).size < 2; t++) {
      const o = outcome();
      flow.serve(request(t), o);
      served.push(o);
    }
    const regionalHit = served.find((o) => o.layer === 1);
    expect(regionalHit).toBeDefined();
    expect(regionalHit?.regional).toBe(0);
    // PoP BBB is 10° from the regional site at AAA: 2 × 1111.95 km × 2 (backbone inflation default) / 204 km/ms + processing.
    const bbb = 1;
    const expected = latency.popToRegionalMs(bbb);
    expect(expected).toBeCloseTo((2 * 10 * KM_PER_DEGREE * topology.latency.backboneRouteInflation) / topology.latency.fibreKmPerMs + topology.latency.regionalProcessingMs, 9);
    // The regional hit costs its PoP's edge hop (fixed here: no last-mile spread) plus that
    // PoP's round trip to the regional site; the client near A (place 0) reaches AAA, near B BBB.
    const edge = regionalHit?.edge ?? -1;
    expect(regionalHit?.latencyMs).toBeCloseTo(latency.clientToPopMs(edge, edge, false) + latency.popToRegionalMs(edge), 9);
    // AAA hosts the regional site: only the regional processing is added there.
    expect(latency.popToRegionalMs(0)).toBeCloseTo(topology.latency.regionalProcessingMs, 9);
  });

  it('RFC 9111 §4.2.3: a copy from the regional site reaches the edge with its age, so the edge keeps it only for what is left of its TTL', () => {
    const { flow, edges, regionals } = flowOver(60_000, 60_000);
    const first = outcome();
    flow.serve(request(0), first);
    // Empty the PoP that served it; the regional copy, stored at t=0, is 40 s old at t=40,000.
    edges[first.edge].remove(1);
    const later = outcome();
    flow.serve(request(40_000), later);
    expect(later.layer).toBe(1);
    expect(regionals[0].expiryOf(1)).toBe(60_000);
    expect(edges[later.edge].expiryOf(1)).toBe(60_000);
    // A shorter edge TTL (say CDN-Cache-Control at the edge) counts from the same origin response.
    const short = flowOver(30_000, 60_000);
    const o = outcome();
    short.flow.serve(request(0), o);
    short.edges[o.edge].remove(1);
    const after = outcome();
    short.flow.serve(request(40_000), after);
    expect(after.layer).toBe(1);
    // 40 s old with a 30 s edge lifetime: already stale for the edge, so it is not stored there.
    expect(short.edges[after.edge].contains(1, 40_000)).toBe(false);
  });

  it('spec 1.1: the body\'s transfer time is reported apart from time to first byte: 1,000 B through a major PoP\'s 100 Gbit/s uplink is 80 ns', () => {
    const { flow } = flowOver(60_000, 60_000);
    const o = outcome();
    flow.serve(request(0), o);
    expect(o.transferMs).toBeCloseTo((1000 * 8) / 100e9 * 1000, 15);
    flow.serve({ ...request(1), sizeBytes: 5_000_000 }, o);
    // 5 MB at 100 Gbit/s: 0.4 ms.
    expect(o.transferMs).toBeCloseTo(0.4, 12);
  });

  it('with the regional tier off an edge miss goes straight to the origin: layers [edge, origin]', () => {
    const { flow, regionals } = flowOver(60_000, 60_000, false);
    expect(flow.layers).toEqual(['edge', 'origin']);
    expect(regionals).toHaveLength(0);
    const o = outcome();
    flow.serve(request(0), o);
    expect([o.layer, o.regional]).toEqual([1, -1]);
  });

  it('a layer whose decision is not to store keeps nothing: every request reaches the origin', () => {
    const topology = layout([pop('AAA', 0)], [city('Near A', 0)], { regionalTier: { sites: ['AAA'] }, origins: ['AAA'] });
    const latency = new TopologyLatencyModel(topology, new RandomStreams(1));
    const flow = new TieredFlow([createCacheStore('lru', { capacity: 1e9 })], [createCacheStore('lru', { capacity: 1e9 })], latency, uniformFreshness(false, 0), uniformFreshness(false, 0));
    const o = outcome();
    for (let t = 0; t < 5; t++) {
      flow.serve(request(t), o);
      expect(o.layer).toBe(2);
    }
  });

  it('spec 4.8: a range is served from its 5 MB chunks, each cached on its own; one missing chunk sends the request upstream', () => {
    const { flow, edges } = flowOver(60_000, 60_000);
    // Object 0 of 12 MB; its chunks are keys 100, 101, 102 (5, 5 and 2 MB).
    const range = (timeMs: number, firstChunk: number, pieces: number, sizeBytes: number): ClientRequest => ({
      ...newClientRequest(),
      timeMs,
      region: 4,
      place: 0,
      objectId: 0,
      objectBytes: 12_000_000,
      sizeBytes,
      key: 100 + firstChunk,
      pieces,
      firstChunk,
    });
    const first = outcome();
    flow.serve(range(0, 0, 2, 4_000_000 + 1), first); // bytes 4,000,000–8,000,000 touch chunks 0 and 1
    expect(first.layer).toBe(2);
    const edge = edges[first.edge];
    expect([100, 101, 102].map((key) => edge.contains(key, 1))).toEqual([true, true, false]);
    expect(edge.occupancy).toBe(10_000_000);
    const within = outcome();
    flow.serve(range(10, 1, 1, 1_000), within); // chunk 1 alone: an edge hit without the origin
    expect(within.layer).toBe(0);
    const spanning = outcome();
    flow.serve(range(20, 1, 2, 4_000_000), spanning); // chunks 1 and 2: chunk 2 is missing everywhere
    expect(spanning.layer).toBe(2);
    expect(edge.contains(102, 21)).toBe(true);
    expect(edge.occupancy).toBe(12_000_000); // the last chunk holds the object's last 2 MB
  });

  it('RFC 9111 §4.2.3: the response age is 0 from the origin and the time since the origin fetch from a cache', () => {
    const { flow } = flowOver(60_000, 60_000);
    const first = outcome();
    flow.serve({ ...request(1_000), place: 0, clientSlot: 0 }, first);
    expect(first.ageMs).toBe(0);
    const hit = outcome();
    flow.serve({ ...request(4_500), place: 0, clientSlot: 0 }, hit);
    expect(hit.layer).toBe(0);
    expect(hit.ageMs).toBe(3_500);
  });
});
