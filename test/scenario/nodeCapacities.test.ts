import { describe, expect, it } from 'vitest';
import { buildRunNetwork } from '../../src/experiment/runNetwork.js';
import { ScenarioError, parseScenarioText } from '../../src/scenario/load.js';
import { nodeCapacity } from '../../src/scenario/nodeCapacities.js';
import { scenarioSchema } from '../../src/scenario/schema.js';
import { scenarioToInput } from '../../src/scenario/serialize.js';
import { RandomStreams } from '../../src/sim/random.js';

const FILE = 'scenarios/sized.yaml';

/** Four PoPs: FRA and AMS in Europe, IAD and SJC in North America; regional sites FRA and IAD. */
const SIZED = `
edge:
  capacity: 4GB
  capacityByRegion: { Europe: 6GB }
  capacityByPop: { FRA: 8GB, SJC: 1GB }
regional:
  capacity: 20GB
  capacityByRegion: { North America: 30GB }
  capacityBySite: { FRA: 25GB }
topology:
  pops: { codes: [FRA, AMS, IAD, SJC] }
  regionalTier: { sites: [FRA, IAD] }
`;

function problemsOf(text: string): string[] {
  try {
    parseScenarioText(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message.split('\n');
  }
  throw new Error('expected a ScenarioError');
}

describe('per-node capacities (docs/plan.md): a PoP overrides its region, which overrides the layer', () => {
  it('nodeCapacity: PoP entry, else region entry, else the default', () => {
    const layer = { capacity: 4e9, capacityByRegion: { Europe: 6e9 }, capacityByNode: { FRA: 8e9 } };
    expect(nodeCapacity(layer, 'FRA', 'Europe')).toBe(8e9);
    expect(nodeCapacity(layer, 'AMS', 'Europe')).toBe(6e9);
    expect(nodeCapacity(layer, 'IAD', 'North America')).toBe(4e9);
    expect(nodeCapacity(layer, 'all', undefined)).toBe(4e9);
  });

  it('each cache node of a run is built with its own capacity (edges and regional sites)', () => {
    const scenario = parseScenarioText(SIZED, FILE);
    const network = buildRunNetwork(scenario, new RandomStreams(1));
    const edges = Object.fromEntries(network.edgeNodes.map((place, i) => [place.name, network.edges[i].store.capacity]));
    expect(edges).toEqual({ FRA: 8e9, AMS: 6e9, IAD: 4e9, SJC: 1e9 });
    const regionals = Object.fromEntries(network.regionalNodes.map((place, i) => [place.name, network.regionals[i].store.capacity]));
    expect(regionals).toEqual({ FRA: 25e9, IAD: 30e9 });
  });

  it('without overrides every node has the layer capacity, and scenario.json gains no key', () => {
    const scenario = parseScenarioText('edge: { capacity: 2GB }\ntopology:\n  pops: { codes: [FRA, AMS] }\n', FILE);
    const network = buildRunNetwork(scenario, new RandomStreams(1));
    expect(network.edges.map((edge) => edge.store.capacity)).toEqual([2e9, 2e9]);
    expect(scenarioToInput(scenario).edge).toEqual({ policy: 'lru', capacity: 2e9 });
  });

  it('the overrides survive scenario.json (written back, loaded again: the same scenario)', () => {
    const scenario = parseScenarioText(SIZED, FILE);
    const input = scenarioToInput(scenario);
    expect(input.edge).toEqual({ policy: 'lru', capacity: 4e9, capacityByRegion: { Europe: 6e9 }, capacityByPop: { FRA: 8e9, SJC: 1e9 } });
    const again = scenarioSchema.parse(input);
    expect(again.edge).toEqual(scenario.edge);
    expect(again.regional).toEqual(scenario.regional);
  });

  it('an unknown PoP code is refused at its key with the nearest code', () => {
    expect(problemsOf('edge:\n  capacityByPop: { FRX: 8GB }\ntopology:\n  pops: { codes: [FRA, AMS] }\n')).toEqual([
      "scenarios/sized.yaml:2:25: `edge.capacityByPop.FRX`: no PoP with code 'FRX' in this scenario's topology; did you mean 'FRA'?",
    ]);
  });

  it('a PoP of the table that the selection dropped is unknown too, and a code far from all lists the codes', () => {
    expect(problemsOf('edge:\n  capacityByPop:\n    IAD: 8GB\n    ZZZZZ: 1GB\ntopology:\n  pops: { codes: [FRA, AMS] }\n')).toEqual([
      "scenarios/sized.yaml:3:10: `edge.capacityByPop.IAD`: no PoP with code 'IAD' in this scenario's topology (its 2 codes: AMS, FRA)",
      "scenarios/sized.yaml:4:12: `edge.capacityByPop.ZZZZZ`: no PoP with code 'ZZZZZ' in this scenario's topology (its 2 codes: AMS, FRA)",
    ]);
  });

  it('an unknown regional site, and a site with the tier off', () => {
    expect(problemsOf('regional:\n  capacityBySite: { FRB: 8GB }\n')).toEqual([
      "scenarios/sized.yaml:2:26: `regional.capacityBySite.FRB`: no regional site with code 'FRB' in this scenario's topology; did you mean 'FRA'?",
    ]);
    expect(problemsOf('regional:\n  capacityBySite: { FRA: 8GB }\ntopology:\n  regionalTier: { enabled: false }\n')).toEqual([
      'scenarios/sized.yaml:2:3: `regional.capacityBySite`: expected no capacityBySite with topology.regionalTier.enabled: false (there is no regional site to size)',
    ]);
  });

  it('an unknown region gets the did-you-mean of every region mapping; a bad size its located error', () => {
    expect(problemsOf('edge:\n  capacityByRegion: { Europa: 6GB }\n')).toEqual(['scenarios/sized.yaml:2:23: `edge.capacityByRegion.Europa`: unknown key — did you mean `Europe`?']);
    expect(problemsOf('edge:\n  capacityByPop: { FRA: 8 gigs }\n')[0]).toMatch(/^scenarios\/sized\.yaml:2:25: `edge\.capacityByPop\.FRA`: expected a size such as 5MB/);
    expect(problemsOf('edge:\n  capacityByPop: { FRA: 0 }\n')[0]).toMatch(/^scenarios\/sized\.yaml:2:25: `edge\.capacityByPop\.FRA`: expected a capacity above 0 bytes/);
  });

  it('the regions model takes capacityByRegion (its edges are regions) and refuses capacityByPop', () => {
    const scenario = parseScenarioText('edge:\n  capacity: 1GB\n  capacityByRegion: { Africa: 3GB }\ntopology: { model: regions }\n', FILE);
    const network = buildRunNetwork(scenario, new RandomStreams(1));
    const edges = Object.fromEntries(network.edgeNodes.map((place, i) => [place.name, network.edges[i].store.capacity]));
    expect(edges.Africa).toBe(3e9);
    expect(edges.Europe).toBe(1e9);
    expect(problemsOf('edge:\n  capacityByPop: { FRA: 1GB }\ntopology: { model: regions }\n')[0]).toContain('expected no capacityByPop under topology model: regions');
  });
});
