import { describe, expect, it } from 'vitest';
import { REGIONS } from '../../src/topology/regions.js';
import { buildTopology } from '../../src/topology/topology.js';
import { defaultTopologySpec } from '../../src/topology/topologySpec.js';
import { nearestPop, routedPops } from '../../src/topology/routing.js';

/**
 * docs/topology.md "PoPs without traffic": a PoP gets client requests only as the nearest PoP
 * (by modelled RTT) of some client place, or, with misrouting on, one of a place's next
 * candidates. The default 339 PoPs and 277 places leave 115 PoPs nobody's nearest: idle by
 * design, not a lost region.
 */
/** PoPs that only African places reach: 28 of the 224 (read off the nearest-PoP table). */
const AFRICA_ONLY = 28;

describe('which PoPs the default client places reach (docs/topology.md)', () => {
  const topology = buildTopology(defaultTopologySpec());
  const placeCount = topology.routing.placeCount;
  const nearest = new Set(Array.from({ length: placeCount }, (_, place) => nearestPop(topology.routing, place)));
  const code = (pop: number): string => topology.pops[pop].code;

  it('339 PoPs, 277 places: 224 PoPs are some place\'s nearest, 115 none\'s (8 in North America, 27 in Europe, 47 in Asia-Pacific, 27 in Latin America, 6 in Africa)', () => {
    expect(topology.pops.length).toBe(339);
    expect(placeCount).toBe(277);
    expect(nearest.size).toBe(224);
    const idleByRegion: Record<string, number> = {};
    topology.pops.forEach((pop, i) => {
      if (!nearest.has(i)) idleByRegion[pop.region] = (idleByRegion[pop.region] ?? 0) + 1;
    });
    expect(idleByRegion).toEqual({ 'North America': 8, Europe: 27, 'Asia-Pacific': 47, 'Latin America': 27, Africa: 6 });
  });

  it('Oceania is part of Asia-Pacific and has places: Sydney, Melbourne, Brisbane, Perth, Adelaide and Auckland each reach their own PoP; Canberra, Hobart, Wellington and Christchurch have no place and stay idle', () => {
    const busy = new Set([...nearest].map(code));
    for (const pop of ['SYD', 'MEL', 'BNE', 'PER', 'ADL', 'AKL']) expect(busy.has(pop), pop).toBe(true);
    for (const pop of ['CBR', 'HBA', 'WLG', 'CHC']) expect(busy.has(pop), pop).toBe(false);
    for (const pop of ['SYD', 'MEL', 'BNE', 'PER', 'ADL', 'AKL']) expect(topology.pops.find((p) => p.code === pop)?.region).toBe('Asia-Pacific');
  });

  it('with misrouting on (routing.misrouteProbability > 0, 4 next-nearest candidates a place), 334 of the 339 PoPs are a place\'s nearest or one of its candidates', () => {
    const spec = defaultTopologySpec();
    const misrouting = buildTopology({ ...spec, routing: { misrouteProbability: 0.1, misrouteCandidates: 4 } });
    const { ranked, stride } = misrouting.routing;
    expect(new Set(ranked.subarray(0, placeCount * stride)).size).toBe(334);
  });

  it('routedPops (what a stationary start fills, docs/warmup.md): the 224 nearest PoPs without misrouting, the 334 with it; a region without demand (Africa 0 %) leaves out the 28 PoPs only its places reach', () => {
    const count = (routed: Uint8Array): number => routed.reduce((sum, r) => sum + r, 0);
    const spec = defaultTopologySpec();
    expect(count(routedPops(topology.routing, topology.routingParameters, topology.clients.demand))).toBe(224);
    const misrouting = buildTopology({ ...spec, routing: { misrouteProbability: 0.1, misrouteCandidates: 4 } });
    expect(count(routedPops(misrouting.routing, misrouting.routingParameters, misrouting.clients.demand))).toBe(334);
    const demand = Float64Array.from(topology.clients.demand, (share, place) => (topology.clients.regionOf[place] === REGIONS.indexOf('Africa') ? 0 : share));
    const routed = routedPops(topology.routing, topology.routingParameters, demand);
    // The PoPs only African places reach: nearest of an African place, of no other.
    const africa = REGIONS.indexOf('Africa');
    const nearestOf = (keep: (place: number) => boolean): Set<number> => new Set(Array.from({ length: placeCount }, (_, place) => place).filter(keep).map((place) => nearestPop(topology.routing, place)));
    const others = nearestOf((place) => topology.clients.regionOf[place] !== africa);
    const onlyAfrican = [...nearestOf((place) => topology.clients.regionOf[place] === africa)].filter((pop) => !others.has(pop));
    expect(onlyAfrican.length).toBe(AFRICA_ONLY);
    for (const pop of onlyAfrican) expect(routed[pop], topology.pops[pop].code).toBe(0);
    expect(count(routed)).toBe(224 - AFRICA_ONLY);
  });
});
