import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../src/sim/random.js';
import { CALIBRATION_TARGET_GLOBAL_MS, calibrateLastMileMedians } from '../../src/topology/calibration.js';
import { DEFAULT_DEMAND_SHARES } from '../../src/topology/clients.js';
import { DEFAULT_LATENCY_PARAMETERS } from '../../src/topology/latencyParameters.js';
import { TopologyLatencyModel } from '../../src/topology/latencyModel.js';
import { STATED_GLOBAL_LATENCY_MS, STATED_LAYER_LATENCY_MS, summariseLatency } from '../../src/topology/latencySummary.js';
import { REGIONS } from '../../src/topology/regions.js';
import { buildTopology } from '../../src/topology/topology.js';
import { parseTopologySpec } from '../../src/topology/topologySpec.js';

/**
 * The calibration (docs/topology.md): the default topology and default client demand give
 * the stated figures of spec 1.1 and 4.9.
 */
const topology = buildTopology();
const summary = summariseLatency(topology);

describe('calibration of the default model against the stated figures', () => {
  it.each(REGIONS.map((region, r) => [region, r] as const))('spec 1.1: the mean edge latency in %s lies inside its stated range', (_region, r) => {
    const { edgeHitMs, statedMs } = summary.regions[r];
    expect(edgeHitMs).toBeGreaterThanOrEqual(statedMs[0]);
    expect(edgeHitMs).toBeLessThanOrEqual(statedMs[1]);
  });

  it('spec 1.1: the demand-weighted global mean is within ±1.5 ms of 25.45 ms', () => {
    expect(Math.abs(summary.global.edgeHitMs - STATED_GLOBAL_LATENCY_MS)).toBeLessThanOrEqual(1.5);
    expect(summary.global.edgeHitMs).toBeCloseTo(CALIBRATION_TARGET_GLOBAL_MS, 1);
    expect(summary.global.demandShare).toBeCloseTo(1, 9);
  });

  it('spec 4.9: the edge layer (client → PoP) averages inside 5–25 ms', () => {
    expect(summary.global.edgeHitMs).toBeGreaterThanOrEqual(STATED_LAYER_LATENCY_MS.edge[0]);
    expect(summary.global.edgeHitMs).toBeLessThanOrEqual(STATED_LAYER_LATENCY_MS.edge[1]);
  });

  it('spec 4.9: a regional hit (edge hop + PoP → regional hop + processing) averages inside 25–50 ms', () => {
    expect(summary.global.regionalHitMs).toBeGreaterThanOrEqual(STATED_LAYER_LATENCY_MS.regional[0]);
    expect(summary.global.regionalHitMs).toBeLessThanOrEqual(STATED_LAYER_LATENCY_MS.regional[1]);
  });

  it('spec 4.9: the origin responds in 50–200 ms on average; near the origin a whole origin fetch does too', () => {
    expect(summary.originServiceMs).toBeGreaterThanOrEqual(STATED_LAYER_LATENCY_MS.origin[0]);
    expect(summary.originServiceMs).toBeLessThanOrEqual(STATED_LAYER_LATENCY_MS.origin[1]);
    const northAmerica = summary.regions[REGIONS.indexOf('North America')];
    expect(northAmerica.originFetchMs).toBeGreaterThanOrEqual(50);
    expect(northAmerica.originFetchMs).toBeLessThanOrEqual(200);
    // Far from a single eastern-US origin a whole origin fetch takes longer (docs/topology.md).
    expect(summary.global.originFetchMs).toBeGreaterThan(200);
  });

  it('the default last-mile medians are what the documented calibration routine gives (to 0.1 ms)', () => {
    const calibrated = calibrateLastMileMedians(topology);
    for (const region of REGIONS) expect(Math.abs(calibrated[region] - DEFAULT_LATENCY_PARAMETERS.lastMileMedianMs[region])).toBeLessThanOrEqual(0.05 + 1e-9);
  });

  it('sampling the model gives the analytic means (300,000 requests, demand-weighted)', () => {
    const model = new TopologyLatencyModel(topology, new RandomStreams(1));
    const perRegion = 60_000;
    const sampled = REGIONS.map((_region, r) => {
      let sum = 0;
      for (let i = 0; i < perRegion; i++) {
        const place = model.samplePlace(r);
        sum += model.clientToPopMs(place, model.route(place), model.sampleMobile(place));
      }
      return sum / perRegion;
    });
    REGIONS.forEach((_region, r) => expect(Math.abs(sampled[r] - summary.regions[r].edgeHitMs) / summary.regions[r].edgeHitMs).toBeLessThan(0.02));
    const globalMean = REGIONS.reduce((sum, region, r) => sum + DEFAULT_DEMAND_SHARES[region] * sampled[r], 0);
    expect(Math.abs(globalMean - summary.global.edgeHitMs)).toBeLessThan(0.3);
  });
});

describe('the model answers capacity questions instead of repeating a table', () => {
  it('losing the African PoPs except Johannesburg raises the African mean; far regions stay', () => {
    const fewer = summariseLatency(buildTopology(parseTopologySpec({ pops: { exclude: topology.pops.filter((p) => p.region === 'Africa' && p.code !== 'JNB').map((p) => p.code) } })));
    const africa = REGIONS.indexOf('Africa');
    expect(fewer.regions[africa].edgeHitMs).toBeGreaterThan(summary.regions[africa].edgeHitMs + 10);
    for (const region of ['North America', 'Asia-Pacific', 'Latin America'] as const) {
      expect(fewer.regions[REGIONS.indexOf(region)].edgeHitMs).toBeCloseTo(summary.regions[REGIONS.indexOf(region)].edgeHitMs, 9);
    }
    // Sana'a's nearest PoP is Djibouti: the Middle East (Europe here) feels it a little.
    expect(fewer.regions[REGIONS.indexOf('Europe')].edgeHitMs).toBeGreaterThan(summary.regions[REGIONS.indexOf('Europe')].edgeHitMs);
  });

  it('adding PoPs in Africa where there are none (Khartoum, Mogadishu) lowers the African mean', () => {
    const more = summariseLatency(
      buildTopology(
        parseTopologySpec({
          pops: {
            add: [
              { code: 'MGQ', city: 'Mogadishu', country: 'Somalia', cca2: 'SO', region: 'Africa', lat: 2.05, lon: 45.32, sizeClass: 'minor' },
              { code: 'KRT', city: 'Khartoum', country: 'Sudan', cca2: 'SD', region: 'Africa', lat: 15.5, lon: 32.56, sizeClass: 'minor' },
            ],
          },
        }),
      ),
    );
    const africa = REGIONS.indexOf('Africa');
    expect(more.regions[africa].edgeHitMs).toBeLessThan(summary.regions[africa].edgeHitMs - 0.5);
  });

  it('origins in Ashburn, Frankfurt and Singapore bring the mean origin fetch under 200 ms', () => {
    const three = summariseLatency(buildTopology(parseTopologySpec({ origins: ['IAD', 'FRA', 'SIN'] })));
    expect(three.global.originFetchMs).toBeLessThan(200);
    expect(three.global.edgeHitMs).toBeCloseTo(summary.global.edgeHitMs, 9);
  });

  it('turning the regional tier off makes a regional hit the edge hit and shortens the origin path', () => {
    const off = summariseLatency(buildTopology(parseTopologySpec({ regionalTier: { enabled: false } })));
    expect(off.global.regionalHitMs).toBeCloseTo(off.global.edgeHitMs, 9);
    expect(off.global.originFetchMs).toBeLessThan(summary.global.originFetchMs);
  });

  it('misrouting 20 % of requests raises the mean edge latency', () => {
    const misrouted = summariseLatency(buildTopology(parseTopologySpec({ routing: { misrouteProbability: '20%' } })));
    expect(misrouted.global.edgeHitMs).toBeGreaterThan(summary.global.edgeHitMs + 0.5);
  });
});
