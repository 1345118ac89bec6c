import type { TopLevelSpec } from 'vega-lite';
import type { IncidentRow } from '../summary.js';
import type { WarmupSummary } from '../warmupSummary.js';
import type { TimeseriesRow } from './chartInputs.js';
import { incidentLayers } from './incidentLayer.js';
import { chartSpec, PERCENT_FORMAT, TOOLTIP_PERCENT } from './spec.js';
import { CHART_HEIGHT, CHART_WIDTH } from './theme.js';
import { measuredTimeAxis } from './warmupAxis.js';

const LAYER_COLUMNS = [
  ['browser', 'browser_hit_ratio'],
  ['edge', 'edge_hit_ratio'],
  ['regional', 'regional_hit_ratio'],
  ['cdn (edge or regional)', 'cdn_hit_ratio'],
] as const;

/**
 * Chart 3, hit ratio per layer over time (timeseries.csv), one line per layer the run has
 * (an empty column is a layer it does not have), incident and deploy windows shaded; the
 * time axis covers the measured part, and a note names the warm-up before it.
 */
export function hitRatioTimeChart(rows: readonly TimeseriesRow[], incidents: readonly IncidentRow[], warmup: WarmupSummary | undefined): TopLevelSpec {
  const axis = measuredTimeAxis(warmup, rows);
  const unit = axis.unit.seconds;
  const values = rows.flatMap((row) =>
    LAYER_COLUMNS.flatMap(([layer, column]) =>
      row[column] === null ? [] : [{ layer, t: (row.start_s + row.end_s) / 2 / unit, from: row.start_s / unit, to: row.end_s / unit, ratio: row[column], requests: row.requests }],
    ),
  );
  const layers = LAYER_COLUMNS.map(([layer]) => layer).filter((layer) => values.some((value) => value.layer === layer));
  const ordered = values.map((value) => ({ ...value, order: layers.indexOf(value.layer) }));
  const x = { field: 't', type: 'quantitative', title: axis.title, scale: axis.scale, axis: axis.axis };
  const y = { field: 'ratio', type: 'quantitative', title: 'hit ratio', axis: { format: PERCENT_FORMAT }, scale: { domain: [0, 1] } };
  const color = { field: 'layer', type: 'nominal', title: 'layer', sort: layers };
  const [bands, ...labels] = incidentLayers(incidents, { unit: axis.unit, domain: axis.scale.domain });
  const subtitle = 'share of the requests reaching each layer that it answered, per interval; shaded: incidents and deploys';
  return chartSpec('Hit ratio per layer over time', axis.note === undefined ? subtitle : [subtitle, axis.note], {
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    layer: [
      ...(bands === undefined ? [] : [bands]),
      {
        data: { values: ordered },
        mark: { type: 'line', interpolate: 'monotone' },
        encoding: { x, y, color },
      },
      {
        // Layers with the same ratio (edge and cdn without a regional tier) would hide each
        // other: points shrink in the legend's order, so they draw as rings.
        data: { values: ordered },
        mark: { type: 'point', filled: true, opacity: 1, stroke: '#ffffff', strokeWidth: 0.5 },
        encoding: {
          x,
          y,
          color,
          size: { field: 'order', type: 'quantitative', scale: { domain: [0, Math.max(1, layers.length - 1)], range: [110, 25] }, legend: null },
          order: { field: 'order', type: 'quantitative' },
          tooltip: [{ field: 'layer' }, { field: 'from', title: `from (${axis.unit.name})` }, { field: 'to', title: `to (${axis.unit.name})` }, { field: 'ratio', title: 'hit ratio', format: TOOLTIP_PERCENT }, { field: 'requests', format: ',' }],
        },
      },
      // Incident labels last, over the lines, each on a white outline.
      ...labels,
    ],
  });
}
