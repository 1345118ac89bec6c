import type { TopLevelSpec } from 'vega-lite';
import type { IncidentRow } from '../summary.js';
import type { WarmupSummary } from '../warmupSummary.js';
import type { TimeseriesRow } from './chartInputs.js';
import { incidentLayers } from './incidentLayer.js';
import { chartSpec } from './spec.js';
import { CHART_WIDTH, COLOURS } from './theme.js';
import { measuredTimeAxis } from './warmupAxis.js';

/**
 * Chart 4, origin load over time (timeseries.csv): requests per second and Gbit/s the origin
 * served per interval, stacked on one time axis, incidents shaded (an outage or purge shows
 * as the origin's spike or gap); the time axis covers the measured part, and a note names the
 * warm-up before it.
 */
export function originLoadChart(rows: readonly TimeseriesRow[], incidents: readonly IncidentRow[], warmup: WarmupSummary | undefined): TopLevelSpec {
  const values = rows.map((row) => ({ t: (row.start_s + row.end_s) / 2, from: row.start_s, to: row.end_s, rps: row.origin_requests_per_s ?? 0, gbps: row.origin_gbit_per_s ?? 0, clientRps: row.requests_per_s }));
  const axis = measuredTimeAxis(warmup, rows);
  const x = { field: 't', type: 'quantitative', title: 'simulated time (s)', scale: axis.scale, axis: axis.axis };
  const tooltip = [
    { field: 'from', title: 'from (s)' },
    { field: 'to', title: 'to (s)' },
    { field: 'rps', title: 'origin requests/s', format: ',.0f' },
    { field: 'gbps', title: 'origin Gbit/s', format: '.3f' },
    { field: 'clientRps', title: 'client requests/s', format: ',.0f' },
  ];
  const panel = (field: string, title: string, color: string) => ({
    width: CHART_WIDTH,
    height: 170,
    layer: [
      ...incidentLayers(incidents),
      { data: { values }, mark: { type: 'area', line: { color }, color, opacity: 0.35, interpolate: 'step-after' }, encoding: { x: { ...x, field: 'from' }, y: { field, type: 'quantitative', title }, tooltip } },
    ],
  });
  const subtitle = 'what reached the origin per interval; shaded: incidents and deploys';
  return chartSpec('Origin load over time', axis.note === undefined ? subtitle : [subtitle, axis.note], {
    vconcat: [panel('rps', 'origin requests/s', COLOURS.simulated), panel('gbps', 'origin egress (Gbit/s)', '#E69F00')],
  });
}
