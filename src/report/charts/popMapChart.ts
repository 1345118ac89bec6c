import { readFileSync } from 'node:fs';
import type { TopLevelSpec } from 'vega-lite';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { PopRow } from './chartInputs.js';
import { packageFile } from './packageFiles.js';
import { chartSpec, TOOLTIP_PERCENT } from './spec.js';
import { COLOURS } from './theme.js';

/** The world's land at 1:110m (world-atlas, Natural Earth), as GeoJSON features: read from node_modules, no network. */
export function worldLand(): unknown[] {
  const topology = JSON.parse(readFileSync(packageFile('world-atlas', 'land-110m.json'), 'utf8')) as Topology<{ land: GeometryCollection }>;
  const land = feature(topology, topology.objects.land);
  return 'features' in land ? land.features : [land];
}

/**
 * Chart 8, the PoPs on a world map (pops.csv latitude/longitude): area by requests served,
 * colour by hit ratio (viridis, readable without colour vision). PoPs without traffic are
 * small grey rings, so the map shows where the network is idle too.
 */
export function popMapChart(rows: readonly PopRow[], land: readonly unknown[] = worldLand()): TopLevelSpec {
  const placed = rows.filter((row) => row.latitude !== null && row.longitude !== null);
  const busy = placed.filter((row) => row.requests > 0);
  const idle = placed.filter((row) => row.requests === 0);
  const tooltip = [
    { field: 'pop' },
    { field: 'region' },
    { field: 'requests', format: ',' },
    { field: 'hit_ratio', title: 'hit ratio', format: TOOLTIP_PERCENT },
    { field: 'peak_egress_gbit_s_1s', title: 'peak egress (Gbit/s)', format: '.3f' },
  ];
  const position = { longitude: { field: 'longitude', type: 'quantitative' }, latitude: { field: 'latitude', type: 'quantitative' } };
  return chartSpec('PoPs on the map', `${busy.length} PoPs with traffic (area: requests, colour: edge hit ratio), ${idle.length} without (grey rings)`, {
    width: 760,
    height: 400,
    projection: { type: 'equalEarth' },
    layer: [
      { data: { values: land }, mark: { type: 'geoshape', fill: COLOURS.land, stroke: '#bbbbbb', strokeWidth: 0.5 } },
      { data: { values: idle }, mark: { type: 'point', shape: 'circle', size: 18, color: '#888888', filled: false, strokeWidth: 0.8 }, encoding: { ...position, tooltip } },
      {
        data: { values: busy },
        mark: { type: 'circle', opacity: 0.85, stroke: '#333333', strokeWidth: 0.4 },
        encoding: {
          ...position,
          size: { field: 'requests', type: 'quantitative', title: 'requests', scale: { range: [20, 600] }, legend: { format: '~s' } },
          color: { field: 'hit_ratio', type: 'quantitative', title: 'edge hit ratio', scale: { scheme: 'viridis', domain: [0, 1] }, legend: { format: '.0%' } },
          order: { field: 'requests', sort: 'descending' },
          tooltip,
        },
      },
    ],
  });
}
