import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../src/sim/random.js';
import { TopologyLatencyModel } from '../../src/topology/latencyModel.js';
import { lognormalMean } from '../../src/topology/latencyParameters.js';
import { REGIONS } from '../../src/topology/regions.js';
import { buildTopology } from '../../src/topology/topology.js';
import { parseTopologySpec } from '../../src/topology/topologySpec.js';
import { city, KM_PER_DEGREE, layout, pop } from './layouts.js';

const AFRICA = REGIONS.indexOf('Africa');

/** Empirical quantile of sorted values. */
function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

// One PoP at 0°, a regional site 10° east, the origin 20° east; one client place 1° east.
const PLACE = city('client', 1);
const LINE = [pop('POP', 0), pop('REG', 10), pop('ORG', 20)];
const lineTopology = (spec = {}) =>
  layout(LINE, [PLACE], {
    pops: { codes: ['POP'] },
    regionalTier: { sites: ['REG'] },
    origins: ['ORG'],
    ...spec,
  });
const backboneRtt = (degrees: number) => (2 * degrees * KM_PER_DEGREE * 1.5) / 204;
const accessRtt = (degrees: number) => (2 * degrees * KM_PER_DEGREE * 2) / 204;

describe('TopologyLatencyModel: the hops of a request (hand-made layout)', () => {
  it('PoP → regional is the backbone round trip + regional processing; an edge miss adds regional → origin + service', () => {
    const model = new TopologyLatencyModel(lineTopology({ latency: { originService: { median: '95ms', sigma: 0 } } }), new RandomStreams(1));
    expect(model.topology.pops).toHaveLength(1);
    expect(model.regionalSiteOf(0)).toBe(0);
    expect(model.popToRegionalMs(0)).toBeCloseTo(backboneRtt(10) + 2, 9);
    expect(model.regionalToOriginMs(0)).toBeCloseTo(backboneRtt(10) + 95, 9);
    expect(model.popToRegionalMs(0) + model.regionalToOriginMs(model.regionalSiteOf(0))).toBeCloseTo(backboneRtt(10) + 2 + backboneRtt(10) + 95, 9);
  });

  it('with the regional tier off an edge miss goes straight to the origin', () => {
    const model = new TopologyLatencyModel(
      lineTopology({ regionalTier: { enabled: false }, latency: { originService: { median: '95ms', sigma: 0 } } }),
      new RandomStreams(1),
    );
    expect(model.regionalSiteOf(0)).toBe(-1);
    expect(model.popToRegionalMs(0)).toBe(0);
    expect(model.popToOriginMs(0)).toBeCloseTo(backboneRtt(20) + 95, 9);
  });

  it('with the last-mile sigma at 0 an edge hit is exactly RTT + last-mile median + processing', () => {
    const model = new TopologyLatencyModel(
      lineTopology({ latency: { lastMileSigma: 0, lastMile: { Africa: '20ms' }, mobileLastMileFactor: 1.5 } }),
      new RandomStreams(1),
    );
    expect(model.clientToPopMs(0, 0, false)).toBeCloseTo(accessRtt(1) + 20 + 1, 9);
    expect(model.clientToPopMs(0, 0, true)).toBeCloseTo(accessRtt(1) + 30 + 1, 9);
  });
});

describe('TopologyLatencyModel: the client leg reads the round trip to the PoP the request reached', () => {
  // Two PoPs at 0° and 5° east, the client place 1° east: its nearest PoP is 0 (1° away), PoP 1 is 4° away.
  const twoPops = () =>
    new TopologyLatencyModel(
      layout([pop('POP', 0), pop('FAR', 5), pop('REG', 10), pop('ORG', 20)], [PLACE], {
        pops: { codes: ['POP', 'FAR'] },
        regionalTier: { sites: ['REG'] },
        origins: ['ORG'],
        latency: { lastMileSigma: 0, lastMile: { Africa: '20ms' } },
      }),
      new RandomStreams(1),
    );

  it('issue 27: the nearest PoP (kept per place) and a misrouted one (the place × PoP matrix) give RTT + last mile + processing of their own hop', () => {
    const model = twoPops();
    expect(model.route(0)).toBe(0);
    expect(model.clientToPopMs(0, 0, false)).toBeCloseTo(accessRtt(1) + 20 + 1, 9);
    expect(model.clientToPopMs(0, 1, false)).toBeCloseTo(accessRtt(4) + 20 + 1, 9);
  });
});

describe('TopologyLatencyModel: sampling matches its distribution parameters', () => {
  const n = 200_000;

  it('the last mile is lognormal: median, mean = median·e^(σ²/2) and p90 = median·e^(1.2816σ) within tolerance', () => {
    const model = new TopologyLatencyModel(lineTopology({ latency: { lastMile: { Africa: '20ms' }, lastMileSigma: 0.5 } }), new RandomStreams(11));
    const fixed = accessRtt(1) + 1;
    const samples = new Float64Array(n);
    for (let i = 0; i < n; i++) samples[i] = model.clientToPopMs(0, 0, false) - fixed;
    samples.sort();
    const mean = samples.reduce((sum, x) => sum + x, 0) / n;
    expect(mean / lognormalMean(20, 0.5)).toBeCloseTo(1, 2);
    expect(quantile(samples, 0.5) / 20).toBeCloseTo(1, 1);
    expect(Math.abs(quantile(samples, 0.5) - 20) / 20).toBeLessThan(0.01);
    expect(Math.abs(quantile(samples, 0.9) - 20 * Math.exp(1.2816 * 0.5)) / (20 * Math.exp(1.2816 * 0.5))).toBeLessThan(0.015);
  });

  it('origin service time: default median 95 ms, mean 101 ms, 90 % of draws inside the stated 50–200 ms (spec 4.9)', () => {
    const model = new TopologyLatencyModel(buildTopology(), new RandomStreams(5));
    const samples = new Float64Array(n);
    for (let i = 0; i < n; i++) samples[i] = model.originServiceMs();
    samples.sort();
    const mean = samples.reduce((sum, x) => sum + x, 0) / n;
    expect(Math.abs(mean - lognormalMean(95, 0.35)) / mean).toBeLessThan(0.01);
    expect(Math.abs(quantile(samples, 0.5) - 95) / 95).toBeLessThan(0.01);
    expect(quantile(samples, 0.05)).toBeGreaterThan(50);
    expect(quantile(samples, 0.95)).toBeLessThan(200);
  });

  it("mobile draws follow the region's mobile share", () => {
    const model = new TopologyLatencyModel(lineTopology({ clients: { demand: { Africa: 1 }, mobileShare: { Africa: '72%' } } }), new RandomStreams(2));
    let mobile = 0;
    for (let i = 0; i < n; i++) if (model.sampleMobile(0)) mobile++;
    expect(mobile / n).toBeCloseTo(0.72, 2);
  });

  it('client places are drawn by population within the region', () => {
    const places = [city('big', 1, 'Africa', 3), city('small', 2, 'Africa', 1)];
    const model = new TopologyLatencyModel(layout([pop('AAA', 0)], places), new RandomStreams(4));
    let big = 0;
    for (let i = 0; i < n; i++) if (model.samplePlace(AFRICA) === 0) big++;
    expect(big / n).toBeCloseTo(0.75, 2);
  });
});

describe('TopologyLatencyModel: deterministic per seed', () => {
  const sequence = (seed: number, model = new TopologyLatencyModel(buildTopology(), new RandomStreams(seed))) =>
    Array.from({ length: 1000 }, (_, i) => {
      const place = model.samplePlace(i % 5);
      const edge = model.route(place);
      const site = model.regionalSiteOf(edge);
      return [edge, model.clientToPopMs(place, edge, model.sampleMobile(place)), model.popToRegionalMs(edge) + model.regionalToOriginMs(site)];
    });

  it('the same seed gives the same PoPs and latencies; another seed others', () => {
    expect(sequence(42)).toEqual(sequence(42));
    expect(sequence(42)).not.toEqual(sequence(43));
  });

  it('misrouting draws from its own stream: turning it on does not shift the last-mile draws of correctly routed requests', () => {
    const plain = new TopologyLatencyModel(buildTopology(), new RandomStreams(9));
    const place = 0;
    const pop = plain.route(place);
    const a = Array.from({ length: 50 }, () => plain.clientToPopMs(place, pop, false));
    const withMisrouting = new TopologyLatencyModel(buildTopology(parseTopologySpec({ routing: { misrouteProbability: 0.3 } })), new RandomStreams(9));
    for (let i = 0; i < 50; i++) withMisrouting.route(place);
    const b = Array.from({ length: 50 }, () => withMisrouting.clientToPopMs(place, pop, false));
    expect(b).toEqual(a);
  });
});
