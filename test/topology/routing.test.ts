import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../src/sim/random.js';
import { buildRoutingTable, nearestPop, Router } from '../../src/topology/routing.js';
import { DEFAULT_LATENCY_PARAMETERS } from '../../src/topology/latencyParameters.js';
import { city, KM_PER_DEGREE, layout, pop } from './layouts.js';

// PoPs A, B, C, D at 0°, 10°, 20°, 30° east on the equator.
const POPS = [pop('AAA', 0), pop('BBB', 10), pop('CCC', 20), pop('DDD', 30)];

describe('anycast routing to the nearest PoP by modelled RTT (hand-made layouts)', () => {
  it('sends each client place to its nearest PoP; a tie goes to the PoP listed first', () => {
    const places = [city('near A', 1), city('near B', 14), city('near C', 16), city('between C and D', 25), city('east of D', 45)];
    const topology = layout(POPS, places);
    expect(places.map((_, place) => POPS[nearestPop(topology.routing, place)].code)).toEqual(['AAA', 'BBB', 'CCC', 'CCC', 'DDD']);
  });

  it('the RTT is 2 × distance × route inflation / fibre speed (2 × 111.2 km × 2 / 204 km/ms ≈ 2.18 ms per degree)', () => {
    const table = buildRoutingTable([city('x', 1)], POPS, DEFAULT_LATENCY_PARAMETERS, { misrouteProbability: 0, misrouteCandidates: 4 });
    expect(table.accessRttMs[0]).toBeCloseTo((2 * KM_PER_DEGREE * 2) / 204, 9);
    expect(table.accessRttMs[1]).toBeCloseTo((2 * 9 * KM_PER_DEGREE * 2) / 204, 9);
    // Ranked by RTT: the nearest, then the misrouting candidates (all other PoPs here, 3 < 4).
    expect(Array.from(table.ranked)).toEqual([0, 1, 2, 3]);
    expect(table.stride).toBe(4);
  });

  it('misroutes the given share of requests, only to the next-nearest candidates, uniformly', () => {
    const topology = layout(POPS, [city('near A', 1)], { routing: { misrouteProbability: 0.25, misrouteCandidates: 2 } });
    const router = new Router(topology.routing, topology.routingParameters, new RandomStreams(7).stream('topology.routing'));
    const counts = [0, 0, 0, 0];
    const n = 200_000;
    for (let i = 0; i < n; i++) counts[router.route(0)]++;
    expect(counts[0] / n).toBeCloseTo(0.75, 2);
    expect(counts[1] / n).toBeCloseTo(0.125, 2);
    expect(counts[2] / n).toBeCloseTo(0.125, 2);
    expect(counts[3]).toBe(0);
  });

  it('routes the same way for the same seed, and draws nothing without misrouting', () => {
    const topology = layout(POPS, [city('near A', 1), city('near C', 19)], { routing: { misrouteProbability: 0.3 } });
    const sequence = (seed: number) => {
      const router = new Router(topology.routing, topology.routingParameters, new RandomStreams(seed).stream('r'));
      return Array.from({ length: 200 }, (_, i) => router.route(i % 2));
    };
    expect(sequence(3)).toEqual(sequence(3));
    expect(sequence(3)).not.toEqual(sequence(4));
    const straight = layout(POPS, [city('near A', 1)]);
    const stream = new RandomStreams(1).stream('r');
    const router = new Router(straight.routing, straight.routingParameters, stream);
    for (let i = 0; i < 10; i++) expect(router.route(0)).toBe(0);
    expect(stream.next()).toBe(new RandomStreams(1).stream('r').next());
  });

  it('rejects a misrouting probability outside 0–1', () => {
    expect(() => buildRoutingTable([city('x', 1)], POPS, DEFAULT_LATENCY_PARAMETERS, { misrouteProbability: 1.5, misrouteCandidates: 4 })).toThrow(
      /routing\.misrouteProbability: expected a probability from 0 to 1, got 1\.5/,
    );
  });
});
