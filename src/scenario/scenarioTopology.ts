import type { Region } from '../topology/regions.js';
import type { TopologySpec } from '../topology/topologySpec.js';
import type { PopsTopology } from './schema.js';

/**
 * The TopologySpec of a PoP-model scenario: its topology section, with the demand per
 * region taken from traffic.regions (one source for how many requests each region sends).
 */
export function topologySpecOf(topology: PopsTopology, regionShares: Readonly<Record<Region, number>>): TopologySpec {
  const { model: _model, ...spec } = topology;
  return { ...spec, clients: { ...spec.clients, demand: { ...regionShares } } };
}
