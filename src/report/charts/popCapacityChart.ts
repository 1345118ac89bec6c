import type { TopLevelSpec } from 'vega-lite';
import type { PopRow } from './chartInputs.js';
import { chartSpec, PERCENT_FORMAT, TOOLTIP_PERCENT } from './spec.js';
import { COLOURS } from './theme.js';
import { busiestOrder } from '../capacityFigures.js';

/** How many PoPs the capacity chart shows: the busiest by share of uplink at the 1 s peak (busiestOrder, docs/capacity.md). */
export const BUSIEST_POPS = 15;

/**
 * Chart 7, PoP capacity (pops.csv): the busiest PoPs' peak egress (1 s and 60 s peaks)
 * against their uplink (spec 1.1: 100 Gbit/s at major PoPs) on a log scale, so both a PoP at
 * 0.1 % of its uplink and one at its limit read; and how full each cache got (peak stored
 * bytes of its capacity). A capacity limit shows as a dot reaching the black tick.
 */
export function popCapacityChart(rows: readonly PopRow[], busiest: number = BUSIEST_POPS): TopLevelSpec {
  // The one meaning of "busiest" (summary.json capacity.busiest, the terminal's table): share of the uplink, egress beside it.
  const ranked = busiestOrder(
    rows
      .filter((row) => row.requests > 0 && (row.peak_egress_gbit_s_1s ?? 0) > 0)
      .map((row) => ({ row, name: row.pop, uplinkGbitPerSecond: row.uplink_gbit_s ?? undefined, peakEgressGbitPerSecond1s: row.peak_egress_gbit_s_1s ?? undefined })),
  );
  const top = ranked
    .slice(0, busiest)
    .map(({ row }) => ({
      ...row,
      label: `${row.pop} (${row.region})`,
      uplinkShare: row.uplink_gbit_s && row.peak_egress_gbit_s_1s !== null ? row.peak_egress_gbit_s_1s / row.uplink_gbit_s : null,
      storedShare: row.capacity_bytes && row.stored_bytes_peak !== null ? row.stored_bytes_peak / row.capacity_bytes : null,
      storedGb: (row.stored_bytes_peak ?? 0) / 1e9,
      capacityGb: row.capacity_bytes === null ? null : row.capacity_bytes / 1e9,
    }));
  const order = top.map((row) => row.label);
  const y = { field: 'label', type: 'nominal', title: `PoP (the ${top.length} busiest by share of uplink)`, sort: order };
  const tooltip = [
    { field: 'pop' },
    { field: 'region' },
    { field: 'requests', format: ',' },
    { field: 'peak_egress_gbit_s_1s', title: 'peak egress, 1 s (Gbit/s)', format: '.3f' },
    { field: 'peak_egress_gbit_s_60s', title: 'peak egress, 60 s (Gbit/s)', format: '.3f' },
    { field: 'uplink_gbit_s', title: 'uplink (Gbit/s)' },
    { field: 'uplinkShare', title: 'peak of uplink', format: TOOLTIP_PERCENT },
    { field: 'peak_requests_per_s', title: 'peak requests/s', format: ',.0f' },
    { field: 'hit_ratio', title: 'hit ratio', format: TOOLTIP_PERCENT },
    { field: 'storedGb', title: 'peak stored (GB)', format: '.2f' },
    { field: 'capacityGb', title: 'capacity (GB)', format: '.2f' },
  ];
  return chartSpec('PoP capacity: the busiest PoPs', ['left: peak egress in 1 s (dark) and 60 s (light) against the uplink (black tick);', 'the grey line is the headroom. Right: peak storage of the cache capacity'], {
    data: { values: top },
    hconcat: [
      {
        width: 380,
        height: { step: 24 },
        layer: [
          { mark: { type: 'rule', color: '#bbbbbb', strokeWidth: 2 }, encoding: { y, x: { field: 'peak_egress_gbit_s_1s', type: 'quantitative' }, x2: { field: 'uplink_gbit_s' }, tooltip } },
          { mark: { type: 'tick', color: COLOURS.capacity, thickness: 3, bandSize: 18 }, encoding: { y, x: { field: 'uplink_gbit_s', type: 'quantitative', title: 'Gbit/s (log scale)', scale: { type: 'log' } }, tooltip } },
          { mark: { type: 'point', filled: true, size: 110, color: '#56B4E9', stroke: '#333333', strokeWidth: 0.4 }, encoding: { y, x: { field: 'peak_egress_gbit_s_60s', type: 'quantitative' }, tooltip } },
          { mark: { type: 'point', filled: true, size: 110, color: COLOURS.simulated, stroke: '#333333', strokeWidth: 0.4 }, encoding: { y, x: { field: 'peak_egress_gbit_s_1s', type: 'quantitative' }, tooltip } },
        ],
      },
      {
        width: 220,
        height: { step: 24 },
        mark: { type: 'bar', color: '#E69F00', height: { band: 0.75 } },
        encoding: {
          y: { ...y, axis: null },
          x: { field: 'storedShare', type: 'quantitative', title: 'peak storage of capacity', axis: { format: PERCENT_FORMAT }, scale: { domain: [0, 1] } },
          tooltip,
        },
      },
    ],
  });
}
