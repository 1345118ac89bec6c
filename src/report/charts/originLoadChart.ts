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
  const axis = measuredTimeAxis(warmup, rows);
  const unit = axis.unit.seconds;
  const intervals = rows.map((row) => ({ from: row.start_s / unit, to: row.end_s / unit, rps: row.origin_requests_per_s ?? 0, gbps: row.origin_gbit_per_s ?? 0, clientRps: row.requests_per_s }));
  // A step drawn from each interval's start ends at the last start: the last interval gets a
  // closing point at its end with the same values, so it is drawn as wide as the others (and a
  // run of one interval is a step, not an invisible point).
  const last = intervals[intervals.length - 1];
  const values = last === undefined ? [] : [...intervals, { ...last, from: last.to, closing: true }];
  const x = { field: 'from', type: 'quantitative', title: axis.title, scale: axis.scale, axis: axis.axis };
  const tooltip = [
    { field: 'from', title: `from (${axis.unit.name})` },
    { field: 'to', title: `to (${axis.unit.name})` },
    { field: 'rps', title: 'origin requests/s', format: ',.0f' },
    { field: 'gbps', title: 'origin Gbit/s', format: '.3f' },
    { field: 'clientRps', title: 'client requests/s', format: ',.0f' },
  ];
  const panel = (field: 'rps' | 'gbps', title: string, color: string, labels: boolean) => {
    const [bands, ...names] = incidentLayers(incidents, { unit: axis.unit, domain: axis.scale.domain, labels });
    // Labels go over the area (drawn last), with headroom above the highest step for their rows.
    const highest = Math.max(0, ...intervals.map((interval) => interval[field]));
    const headroom = names.length > 0 && highest > 0 ? { scale: { domainMax: highest * 1.4 } } : {};
    return {
      width: CHART_WIDTH,
      height: 170,
      layer: [
        ...(bands === undefined ? [] : [bands]),
        { data: { values }, mark: { type: 'area', line: { color }, color, opacity: 0.35, interpolate: 'step-after' }, encoding: { x, y: { field, type: 'quantitative', title, ...headroom }, tooltip } },
        ...names,
      ],
    };
  };
  const subtitle = 'what reached the origin per interval; shaded: incidents and deploys';
  return chartSpec('Origin load over time', axis.note === undefined ? subtitle : [subtitle, axis.note], {
    vconcat: [panel('rps', 'origin requests/s', COLOURS.simulated, true), panel('gbps', 'origin egress (Gbit/s)', '#E69F00', false)],
  });
}
