import type { ClientCity } from '../../src/topology/clients.js';
import type { Pop } from '../../src/topology/pops.js';
import type { Region } from '../../src/topology/regions.js';
import { buildTopology, type Topology } from '../../src/topology/topology.js';
import { parseTopologySpec, type TopologySpecInput } from '../../src/topology/topologySpec.js';

/** Hand-made layouts on the equator, where one degree of longitude is 111.195 km. */
export const KM_PER_DEGREE = (2 * Math.PI * 6371.0088) / 360;

export function pop(code: string, lon: number, region: Region = 'Africa', lat = 0): Pop {
  return { code, city: `City ${code}`, country: 'Testland', cca2: 'TL', region, lat, lon, sizeClass: 'major' };
}

export function city(name: string, lon: number, region: Region = 'Africa', populationM = 1, lat = 0): ClientCity {
  return { name, cca2: 'TL', region, lat, lon, populationM };
}

/** A topology over the given PoPs and places, all demand in Africa unless the spec says otherwise. */
export function layout(pops: Pop[], cities: ClientCity[], spec: TopologySpecInput = {}): Topology {
  const resolved = parseTopologySpec({
    clients: { demand: { Africa: 1 } },
    regionalTier: { sites: [pops[0].code] },
    origins: [pops[0].code],
    ...spec,
  });
  return buildTopology(resolved, { popTable: pops, cities });
}
