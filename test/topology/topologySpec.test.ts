import { describe, expect, it } from 'vitest';
import { DEFAULT_DEMAND_SHARES, DEFAULT_MOBILE_SHARES } from '../../src/topology/clients.js';
import { DEFAULT_LATENCY_PARAMETERS } from '../../src/topology/latencyParameters.js';
import { DEFAULT_REGIONAL_SITES } from '../../src/topology/regionalTier.js';
import { buildTopology } from '../../src/topology/topology.js';
import { defaultTopologySpec, parseTopologySpec } from '../../src/topology/topologySpec.js';
import { UserError } from '../../src/userError.js';

describe('TopologySpec (zod, standalone)', () => {
  it('an empty spec resolves to the documented defaults', () => {
    const spec = defaultTopologySpec();
    expect(spec.latency).toEqual(DEFAULT_LATENCY_PARAMETERS);
    expect(spec.clients.demand).toEqual(DEFAULT_DEMAND_SHARES);
    expect(spec.clients.mobileShare).toEqual(DEFAULT_MOBILE_SHARES);
    expect(spec.regionalTier).toEqual({ enabled: true, sites: [...DEFAULT_REGIONAL_SITES] });
    expect(spec.routing).toEqual({ misrouteProbability: 0, misrouteCandidates: 4 });
    expect(spec.origins).toBeUndefined();
    expect(spec.pops.add).toEqual([]);
  });

  it('takes the scenario file units and keeps the defaults of what it leaves out', () => {
    const spec = parseTopologySpec({
      latency: { lastMile: { Africa: '25ms' }, edgeProcessing: '500us', originService: { median: '0.1s' } },
      clients: { demand: { Europe: '60%', 'North America': 0.4 }, mobileShare: { Europe: '50%' } },
      routing: { misrouteProbability: '5%' },
    });
    expect(spec.latency.lastMileMedianMs).toEqual({ ...DEFAULT_LATENCY_PARAMETERS.lastMileMedianMs, Africa: 25 });
    expect(spec.latency.edgeProcessingMs).toBe(0.5);
    expect(spec.latency.originServiceMedianMs).toBe(100);
    expect(spec.latency.originServiceSigma).toBe(DEFAULT_LATENCY_PARAMETERS.originServiceSigma);
    expect(spec.clients.demand).toEqual({ 'North America': 0.4, Europe: 0.6, 'Asia-Pacific': 0, 'Latin America': 0, Africa: 0 });
    expect(spec.clients.mobileShare.Europe).toBe(0.5);
    expect(spec.clients.mobileShare.Africa).toBe(DEFAULT_MOBILE_SHARES.Africa);
    expect(spec.routing.misrouteProbability).toBeCloseTo(0.05, 12);
  });

  it('names the key at fault', () => {
    expect(() => parseTopologySpec({ latency: { lastMile: { Africa: 20 } } }, 'scenario.yaml: topology')).toThrow(
      /scenario\.yaml: topology: latency\.lastMile\.Africa: expected a duration/,
    );
    expect(() => parseTopologySpec({ clients: { demand: { Europe: '50%' } } })).toThrow(/topology: clients\.demand: expected region shares that add up to 100%/);
    expect(() => parseTopologySpec({ regionalTier: { sites: ['fra'] } })).toThrow(/regionalTier\.sites\[0\]/);
    expect(() => parseTopologySpec({ pops: { regions: ['Middle East'] } })).toThrow(/pops\.regions\[0\]/);
    expect(() => parseTopologySpec({ latencyy: {} })).toThrow(UserError);
  });

  it('builds a smaller topology: one region, the tier off, an origin of its own', () => {
    const topology = buildTopology(
      parseTopologySpec({
        pops: { regions: ['Europe'], count: 20 },
        regionalTier: { enabled: false },
        origins: [{ code: 'AMS1', city: 'Amsterdam', region: 'Europe', lat: 52.37, lon: 4.9 }],
      }),
    );
    expect(topology.pops.length).toBe(20);
    expect(topology.pops.every((pop) => pop.region === 'Europe')).toBe(true);
    expect(topology.regionalTier.enabled).toBe(false);
    expect(topology.origins.map((origin) => origin.code)).toEqual(['AMS1']);
  });

  it('rejects an unknown regional site or origin code with a suggestion', () => {
    expect(() => buildTopology(parseTopologySpec({ regionalTier: { sites: ['FRX'] } }))).toThrow(/regionalTier\.sites\[0\]: no PoP with code 'FRX'.*did you mean/);
    expect(() => buildTopology(parseTopologySpec({ origins: ['IAD', 'IAD'] }))).toThrow(/origins\[1\]: IAD is listed twice/);
  });
});
