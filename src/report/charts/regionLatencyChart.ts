import type { TopLevelSpec } from 'vega-lite';
import type { RegionRow } from './chartInputs.js';
import { chartSpec } from './spec.js';
import { COLOURS } from './theme.js';

/** p50 … p99.9 in five Okabe–Ito hues that differ at a glance (five shades of one blue did not). */
const PERCENTILE_COLOURS = ['#56B4E9', '#009E73', '#E69F00', '#D55E00', '#000000'];

/**
 * Chart 2, latency by client region. Left: edge hits, the figure the service states per
 * region (spec 1.1), the stated range shaded, the mean as a point and p50–p95 as a bar.
 * Right: every request of the region (edge, regional and origin served), p50 to p99.9 on a
 * log scale, so the origin's long tail and the edge's tens of milliseconds fit on one axis.
 */
export function regionLatencyChart(rows: readonly RegionRow[]): TopLevelSpec {
  const regions = rows.filter((row) => row.requests > 0).map((row) => row.region);
  const y = { field: 'region', type: 'nominal', title: 'client region', sort: regions };
  const edgeTooltip = [
    { field: 'region' },
    { field: 'edge_hit_requests', title: 'edge hits', format: ',' },
    { field: 'edge_hit_mean_ms', title: 'mean (ms)', format: '.1f' },
    { field: 'edge_hit_p50_ms', title: 'p50 (ms)', format: '.1f' },
    { field: 'edge_hit_p95_ms', title: 'p95 (ms)', format: '.1f' },
    { field: 'stated_edge_hit_min_ms', title: 'stated min (ms)' },
    { field: 'stated_edge_hit_max_ms', title: 'stated max (ms)' },
  ];
  const percentiles = ['p50', 'p90', 'p95', 'p99', 'p99.9'];
  const allData = rows
    .filter((row) => row.requests > 0)
    .flatMap((row) =>
      [row.p50_ms, row.p90_ms, row.p95_ms, row.p99_ms, row.p999_ms].flatMap((ms, index) =>
        ms === null || ms <= 0 ? [] : [{ region: row.region, percentile: percentiles[index], ms, requests: row.requests, mean: row.mean_ms }],
      ),
    );
  const edgeRows = rows.filter((row) => row.requests > 0);
  return chartSpec('Latency by client region', 'time to first byte; shaded: the stated mean latency of edge hits per region (spec 1.1)', {
    hconcat: [
      {
        title: { text: 'edge hits: mean (point), p50–p95 (bar)', fontSize: 14 },
        width: 300,
        height: { step: 44 },
        data: { values: edgeRows },
        layer: [
          { mark: { type: 'bar', color: COLOURS.stated, opacity: 0.3, height: { band: 0.8 } }, encoding: { y, x: { field: 'stated_edge_hit_min_ms', type: 'quantitative', title: 'edge hit time to first byte (ms)' }, x2: { field: 'stated_edge_hit_max_ms' }, tooltip: edgeTooltip } },
          { mark: { type: 'rule', color: COLOURS.simulated, strokeWidth: 6, opacity: 0.45 }, encoding: { y, x: { field: 'edge_hit_p50_ms', type: 'quantitative' }, x2: { field: 'edge_hit_p95_ms' }, tooltip: edgeTooltip } },
          { mark: { type: 'point', filled: true, size: 150, color: COLOURS.simulated, stroke: '#000000', strokeWidth: 0.5 }, encoding: { y, x: { field: 'edge_hit_mean_ms', type: 'quantitative' }, tooltip: edgeTooltip } },
        ],
      },
      {
        title: { text: 'all requests: percentiles', fontSize: 14 },
        width: 300,
        height: { step: 44 },
        data: { values: allData },
        layer: [
          { mark: { type: 'rule', color: '#999999', strokeWidth: 2 }, encoding: { y: { ...y, axis: null }, x: { aggregate: 'min', field: 'ms', type: 'quantitative' }, x2: { aggregate: 'max', field: 'ms' } } },
          { mark: { type: 'tick', thickness: 3, bandSize: 26 }, encoding: {
            y: { ...y, axis: null },
            x: { field: 'ms', type: 'quantitative', title: 'time to first byte (ms, log scale)', scale: { type: 'log' } },
            color: { field: 'percentile', type: 'ordinal', title: 'percentile', sort: percentiles, scale: { range: PERCENTILE_COLOURS } },
            tooltip: [{ field: 'region' }, { field: 'percentile' }, { field: 'ms', title: 'ms', format: '.1f' }, { field: 'requests', format: ',' }],
          } },
        ],
      },
    ],
    resolve: { scale: { y: 'shared' } },
  });
}
