import { DEFAULT_UPLINK_BITS_PER_SECOND } from '../topology/bandwidth.js';
import { RegionNetwork, TopologyNetwork, type FlowNetwork } from '../cdn/flowNetwork.js';
import type { CacheNode } from '../cdn/cacheNode.js';
import { createCacheNode } from '../cdn/createCacheNode.js';
import type { Scenario } from '../scenario/schema.js';
import { nodeCapacity, type LayerCapacities } from '../scenario/nodeCapacities.js';
import { topologySpecOf } from '../scenario/scenarioTopology.js';
import type { RandomStreams } from '../sim/random.js';
import { buildClientPlaces, loadClientCities, type ClientPlaces } from '../topology/clients.js';
import { TopologyLatencyModel } from '../topology/latencyModel.js';
import { RegionLatencyModel } from '../topology/regionLatency.js';
import { REGIONS, type Region } from '../topology/regions.js';
import { buildTopology } from '../topology/topology.js';
import { nearestPop } from '../topology/routing.js';

/** A cache node's name and region. */
export interface NodePlace {
  name: string;
  region?: Region;
  /** Model pops, edge caches: the PoP's place and its uplink (spec 1.1). */
  latitude?: number;
  longitude?: number;
  uplinkBitsPerSecond?: number;
}

/** The caches and the network a scenario's topology model gives. */
export interface RunNetwork {
  readonly network: FlowNetwork;
  readonly edges: readonly CacheNode[];
  readonly edgeNodes: readonly NodePlace[];
  readonly regionals: readonly CacheNode[];
  readonly regionalNodes: readonly NodePlace[];
  /** Whether each edge sees independent requests for the whole catalogue (the theory's assumption). */
  readonly theoryApplies: boolean;
  /** Where clients are, with the demand of each place: the workload's sources and time zones. */
  readonly places: ClientPlaces;
  /**
   * Per edge, 1 when normal routing sends it requests: a stationary start fills only these
   * (an edge no client reaches stays empty in its steady state; docs/warmup.md).
   */
  readonly routedEdges: Uint8Array;
  /** Per client place, the edge its requests reach unless misrouted: a model class's PoP stream (docs/traffic-models.md). */
  readonly homeEdgeOfPlace: Int32Array;
  /** Whether every request reaches its place's home edge: no misrouting (which draws per request). */
  readonly routesHome: boolean;
}

const isRegion = (name: string): name is Region => (REGIONS as readonly string[]).includes(name);

/** The edge layer's capacities: its default, by region, by PoP code (docs/plan.md). */
export const edgeCapacities = (scenario: Scenario): LayerCapacities => ({
  capacity: scenario.edge.capacity,
  ...(scenario.edge.capacityByRegion === undefined ? {} : { capacityByRegion: scenario.edge.capacityByRegion }),
  ...(scenario.edge.capacityByPop === undefined ? {} : { capacityByNode: scenario.edge.capacityByPop }),
});

/** The regional layer's capacities: its default, by region, by site code (docs/plan.md). */
export const regionalCapacities = (scenario: Scenario): LayerCapacities => ({
  capacity: scenario.regional.capacity,
  ...(scenario.regional.capacityByRegion === undefined ? {} : { capacityByRegion: scenario.regional.capacityByRegion }),
  ...(scenario.regional.capacityBySite === undefined ? {} : { capacityByNode: scenario.regional.capacityBySite }),
});

/**
 * The scenario's topology as the flow sees it: `pops` is a PoP per edge cache over a regional
 * tier with physical latency; `regions` is one edge per region (or one for all) over the origin,
 * whose latency is then the origin's service time.
 */
export function buildRunNetwork(scenario: Scenario, streams: RandomStreams): RunNetwork {
  const { topology } = scenario;
  const edge = edgeCapacities(scenario);
  const regional = regionalCapacities(scenario);
  if (topology.model === 'pops') {
    const latency = new TopologyLatencyModel(buildTopology(topologySpecOf(topology, scenario.traffic.regions)), streams);
    const { pops, regionalTier } = latency.topology;
    const regionalSites = regionalTier.enabled ? regionalTier.sites : [];
    return {
      network: new TopologyNetwork(latency),
      // Each node its own capacity: PoP, else region, else the layer's (docs/plan.md).
      edges: pops.map((pop, p) => createCacheNode(scenario.edge.policy, nodeCapacity(edge, pop.code, pop.region), p)),
      edgeNodes: pops.map((pop) => ({ name: pop.code, region: pop.region, latitude: pop.lat, longitude: pop.lon, uplinkBitsPerSecond: DEFAULT_UPLINK_BITS_PER_SECOND[pop.sizeClass] })),
      regionals: regionalSites.map((site, s) => createCacheNode(scenario.regional.policy, nodeCapacity(regional, site.code, site.region), pops.length + s)),
      regionalNodes: regionalSites.map((site) => ({ name: site.code, region: site.region })),
      theoryApplies: false,
      places: latency.topology.clients,
      routedEdges: latency.routedPops,
      homeEdgeOfPlace: Int32Array.from(latency.topology.clients.regionOf, (_, place) => nearestPop(latency.topology.routing, place)),
      routesHome: latency.topology.routingParameters.misrouteProbability === 0,
    };
  }
  const latency = new RegionLatencyModel(
    {
      regionNames: REGIONS,
      clientToEdgeMedianMs: REGIONS.map((region) => topology.clientToEdge[region]),
      jitterSigma: topology.jitter,
      originLatencyMs: topology.originLatencyMs,
      edgeSites: topology.edgeSites,
    },
    streams.stream('topology.latency'),
  );
  const places = buildClientPlaces(loadClientCities(), scenario.traffic.regions);
  return {
    network: new RegionNetwork(latency),
    edges: latency.edgeNames.map((name, e) => createCacheNode(scenario.edge.policy, nodeCapacity(edge, name, isRegion(name) ? name : undefined), e)),
    edgeNodes: latency.edgeNames.map((name) => (isRegion(name) ? { name, region: name } : { name })),
    regionals: [],
    regionalNodes: [],
    theoryApplies: true,
    // The regions model has no map, but clients still have a local time: the same metros give it.
    places,
    homeEdgeOfPlace: Int32Array.from(places.regionOf, (region) => latency.edgeFor(region)),
    routesHome: true,
    // An edge per region is reached when its region has demand; one edge for all always is.
    routedEdges: Uint8Array.from(latency.edgeNames, (name) => (isRegion(name) && !(scenario.traffic.regions[name] > 0) ? 0 : 1)),
  };
}
