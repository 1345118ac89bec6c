import { buildClientPlaces, loadClientCities, type ClientCity, type ClientPlaces } from './clients.js';
import type { LatencyParameters } from './latencyParameters.js';
import { nearestOrigins, resolveOrigins } from './origins.js';
import { loadPopTable, selectPops, type Pop } from './pops.js';
import { buildRegionalTier, type RegionalTier } from './regionalTier.js';
import { REGIONS } from './regions.js';
import { buildRoutingTable, type RoutingParameters, type RoutingTable } from './routing.js';
import type { Site } from './sites.js';
import { defaultTopologySpec, type TopologySpec } from './topologySpec.js';

/**
 * The whole modelled network: the PoPs in use, the regional tier, the origins, the client
 * places with their demand, and the routing table. Built once per run from a resolved
 * TopologySpec; everything per request is precomputed here or in TopologyLatencyModel.
 */
export interface Topology {
  /** The PoPs in use, in table order (custom PoPs last). A PoP's index is its edge index. */
  readonly pops: readonly Pop[];
  readonly regionalTier: RegionalTier;
  readonly origins: readonly Site[];
  /** For each regional site, its nearest origin. */
  readonly originOfRegional: Int32Array;
  /** For each PoP, its nearest origin (the path when the regional tier is off). */
  readonly originOfPop: Int32Array;
  readonly clients: ClientPlaces;
  /** Share of mobile requests per region index. */
  readonly mobileShare: Float64Array;
  readonly latency: LatencyParameters;
  readonly routingParameters: RoutingParameters;
  readonly routing: RoutingTable;
}

/** Data the topology is built from; the defaults are the committed tables in data/. */
export interface TopologyData {
  readonly popTable?: readonly Pop[];
  readonly cities?: readonly ClientCity[];
}

/**
 * Resolves the spec's references (PoP codes, regional sites, origins, the PoP selection)
 * without building the routing table: what `validate` checks, cheaply. Throws the same
 * UserErrors, with their key paths, that buildTopology would.
 */
export function checkTopologyReferences(spec: TopologySpec, data: TopologyData = {}): void {
  const table = data.popTable ?? loadPopTable();
  const pops = selectPops(table, spec.pops);
  const siteTable = [...table, ...spec.pops.add.filter((pop) => !table.some((known) => known.code === pop.code))];
  buildRegionalTier(pops, siteTable, spec.regionalTier);
  resolveOrigins(spec.origins, siteTable);
}

/** The codes of the PoPs a spec selects and of its regional sites (none when the tier is off), without the routing table. */
export function topologyNodes(spec: TopologySpec, data: TopologyData = {}): { pops: string[]; regionalTier: string[] } {
  const table = data.popTable ?? loadPopTable();
  const pops = selectPops(table, spec.pops);
  const siteTable = [...table, ...spec.pops.add.filter((pop) => !table.some((known) => known.code === pop.code))];
  return { pops: pops.map((pop) => pop.code), regionalTier: buildRegionalTier(pops, siteTable, spec.regionalTier).sites.map((site) => site.code) };
}

export function buildTopology(spec: TopologySpec = defaultTopologySpec(), data: TopologyData = {}): Topology {
  const table = data.popTable ?? loadPopTable();
  const pops = selectPops(table, spec.pops);
  // Regional sites and origins may sit at a PoP the selection dropped: they are other buildings.
  const siteTable = [...table, ...spec.pops.add.filter((pop) => !table.some((known) => known.code === pop.code))];
  const regionalTier = buildRegionalTier(pops, siteTable, spec.regionalTier);
  const origins = resolveOrigins(spec.origins, siteTable);
  const cities = [...(data.cities ?? loadClientCities()), ...spec.clients.add];
  const clients = buildClientPlaces(cities, spec.clients.demand);
  return {
    pops,
    regionalTier,
    origins,
    originOfRegional: nearestOrigins(regionalTier.sites, origins),
    originOfPop: nearestOrigins(pops, origins),
    clients,
    mobileShare: Float64Array.from(REGIONS, (region) => spec.clients.mobileShare[region]),
    latency: spec.latency,
    routingParameters: spec.routing,
    routing: buildRoutingTable(cities, pops, spec.latency, spec.routing),
  };
}
