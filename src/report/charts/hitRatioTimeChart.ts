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
  const values = rows.flatMap((row) =>
    LAYER_COLUMNS.flatMap(([layer, column]) => (row[column] === null ? [] : [{ layer, t: (row.start_s + row.end_s) / 2, from: row.start_s, to: row.end_s, ratio: row[column], requests: row.requests }])),
  );
  const layers = LAYER_COLUMNS.map(([layer]) => layer).filter((layer) => values.some((value) => value.layer === layer));
  const axis = measuredTimeAxis(warmup, rows);
  const subtitle = 'share of the requests reaching each layer that it answered, per interval; shaded: incidents and deploys';
  return chartSpec('Hit ratio per layer over time', axis.note === undefined ? subtitle : [subtitle, axis.note], {
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    layer: [
      ...incidentLayers(incidents),
      {
        data: { values },
        mark: { type: 'line', point: true, interpolate: 'monotone' },
        encoding: {
          x: { field: 't', type: 'quantitative', title: 'simulated time (s)', scale: axis.scale, axis: axis.axis },
          y: { field: 'ratio', type: 'quantitative', title: 'hit ratio', axis: { format: PERCENT_FORMAT }, scale: { domain: [0, 1] } },
          color: { field: 'layer', type: 'nominal', title: 'layer', sort: layers },
          tooltip: [{ field: 'layer' }, { field: 'from', title: 'from (s)' }, { field: 'to', title: 'to (s)' }, { field: 'ratio', title: 'hit ratio', format: TOOLTIP_PERCENT }, { field: 'requests', format: ',' }],
        },
      },
    ],
  });
}
