import type { TopLevelSpec } from 'vega-lite';
import type { CompareFile } from './chartInputs.js';
import { chartSpec, PERCENT_FORMAT, TOOLTIP_PERCENT } from './spec.js';
import { PALETTE } from './theme.js';

/** Shapes cycle with a period (5) prime to the palette's (8): 40 strategies before a colour and shape repeat together. */
const STRATEGY_SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'cross'];

/** Point areas from large to small, so points on the same spot draw as concentric marks. */
export function pointSizes(count: number): number[] {
  const largest = 420;
  const smallest = 60;
  if (count <= 1) return [200];
  return Array.from({ length: count }, (_, i) => Math.round(largest - ((largest - smallest) * i) / (count - 1)));
}

/**
 * Chart 6, strategies compared (compare.json): left, CDN hit ratio against the share of
 * responses older than the origin's current version (summary.staleness.share), one point
 * per strategy named in the legend, so the trade-off between freshness and offload reads at
 * a glance (the worst staleness is in the tooltip: strategies that differ in how often they
 * serve old content often share the same worst case); right, latency percentiles per strategy.
 */
export function strategyChart(compare: CompareFile): TopLevelSpec {
  const strategies = compare.strategies.map(({ name, summary }) => ({
    name,
    cdnHitRatio: summary.hitRatio.cdn ?? summary.hitRatio.edge ?? 0,
    worstStalenessS: summary.cdn?.staleness?.maxSeconds ?? 0,
    staleShare: summary.cdn?.staleness?.share ?? 0,
    originRequests: summary.cdn?.origin?.requests ?? null,
    availability: summary.cdn?.availability ?? null,
  }));
  const latency = compare.strategies.flatMap(({ name, summary }) =>
    (['p50', 'p95', 'p99'] as const).map((percentile) => ({ name, percentile, ms: summary.latencyMs.all[percentile] })),
  );
  const names = strategies.map((strategy) => strategy.name);
  const legend = { orient: 'bottom', direction: 'vertical', columns: 2, labelLimit: 0, symbolStrokeColor: '#000000', symbolStrokeWidth: 0.6 };
  const tooltip = [
    { field: 'name', title: 'strategy' },
    { field: 'cdnHitRatio', title: 'CDN hit ratio', format: TOOLTIP_PERCENT },
    { field: 'worstStalenessS', title: 'worst staleness (s)', format: ',.1f' },
    { field: 'staleShare', title: 'outdated responses', format: TOOLTIP_PERCENT },
    { field: 'originRequests', title: 'origin requests', format: ',' },
    { field: 'availability', format: TOOLTIP_PERCENT },
  ];
  // Outdated shares are often tiny (0.004 %): two significant digits, not "0%" on every tick.
  const x = { field: 'staleShare', type: 'quantitative', title: 'outdated responses (older than the origin\'s version)', axis: { format: '.2~%', labelOverlap: 'greedy' } };
  const y = { field: 'cdnHitRatio', type: 'quantitative', title: 'CDN hit ratio', axis: { format: PERCENT_FORMAT } };
  return chartSpec(`Strategies compared: ${compare.scenario}, seed ${compare.seed}`, 'up and left is better: more offload, fresher content', {
    hconcat: [
      {
        width: 380,
        height: 300,
        data: { values: strategies },
        // A legend names each point (labels beside the points printed over each other when two
        // strategies landed close); a colour and a shape per strategy, and sizes shrinking in
        // the legend's order, so strategies on the same point show as rings, not one dot.
        mark: { type: 'point', filled: true, stroke: '#000000', strokeWidth: 0.6, opacity: 1 },
        encoding: {
          x,
          y,
          // Colour and shape share one legend (same field, title and legend), each entry drawn in both.
          color: { field: 'name', type: 'nominal', title: 'strategy', sort: names, scale: names.length <= PALETTE.length ? { range: [...PALETTE] } : { scheme: 'tableau20' }, legend },
          shape: { field: 'name', type: 'nominal', title: 'strategy', sort: names, scale: { range: STRATEGY_SHAPES }, legend },
          size: { field: 'name', type: 'ordinal', title: 'strategy', sort: names, scale: { range: pointSizes(names.length) }, legend },
          tooltip,
        },
      },
      {
        width: 300,
        height: 300,
        data: { values: latency },
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'name', type: 'nominal', title: null, sort: names },
          yOffset: { field: 'percentile', sort: ['p50', 'p95', 'p99'] },
          x: { field: 'ms', type: 'quantitative', title: 'time to first byte (ms)' },
          color: { field: 'percentile', type: 'nominal', title: 'percentile', sort: ['p50', 'p95', 'p99'], scale: { range: ['#56B4E9', '#0072B2', '#000000'] } },
          tooltip: [{ field: 'name', title: 'strategy' }, { field: 'percentile' }, { field: 'ms', format: '.1f' }],
        },
      },
    ],
    resolve: { scale: { color: 'independent', shape: 'independent', size: 'independent' } },
  });
}
