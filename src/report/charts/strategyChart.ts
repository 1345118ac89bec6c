import type { TopLevelSpec } from 'vega-lite';
import type { CompareFile } from './chartInputs.js';
import { chartSpec, PERCENT_FORMAT, TOOLTIP_PERCENT } from './spec.js';

/**
 * Chart 6, strategies compared (compare.json): left, CDN hit ratio against the share of
 * responses older than the origin's current version (summary.staleness.share), one labelled
 * point per strategy, so the trade-off between freshness and offload reads at a glance (the
 * worst staleness is in the tooltip: strategies that differ in how often they serve old
 * content often share the same worst case); right, latency percentiles per strategy.
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
  // Strategies that land on the same point (same hit ratio and outdated share to 0.1 point)
  // share one label, "a = b", so the names do not print over each other.
  const pointKey = (strategy: (typeof strategies)[number]) => `${(strategy.cdnHitRatio * 1000).toFixed(0)}:${(strategy.staleShare * 1000).toFixed(0)}`;
  const namesAt = new Map<string, string[]>();
  for (const strategy of strategies) namesAt.set(pointKey(strategy), [...(namesAt.get(pointKey(strategy)) ?? []), strategy.name]);
  const labels = strategies.map((strategy) => {
    const together = namesAt.get(pointKey(strategy)) ?? [strategy.name];
    return { ...strategy, label: together[0] === strategy.name ? together.join(' = ') : '' };
  });
  const latency = compare.strategies.flatMap(({ name, summary }) =>
    (['p50', 'p95', 'p99'] as const).map((percentile) => ({ name, percentile, ms: summary.latencyMs.all[percentile] })),
  );
  const names = strategies.map((strategy) => strategy.name);
  const tooltip = [
    { field: 'name', title: 'strategy' },
    { field: 'cdnHitRatio', title: 'CDN hit ratio', format: TOOLTIP_PERCENT },
    { field: 'worstStalenessS', title: 'worst staleness (s)', format: ',.1f' },
    { field: 'staleShare', title: 'outdated responses', format: TOOLTIP_PERCENT },
    { field: 'originRequests', title: 'origin requests', format: ',' },
    { field: 'availability', format: TOOLTIP_PERCENT },
  ];
  const x = { field: 'staleShare', type: 'quantitative', title: 'outdated responses (older than the origin\'s version)', axis: { format: PERCENT_FORMAT } };
  const y = { field: 'cdnHitRatio', type: 'quantitative', title: 'CDN hit ratio', axis: { format: PERCENT_FORMAT } };
  return chartSpec(`Strategies compared: ${compare.scenario}, seed ${compare.seed}`, 'up and left is better: more offload, fresher content', {
    hconcat: [
      {
        width: 380,
        height: 300,
        data: { values: labels },
        layer: [
          { mark: { type: 'point', size: 160, filled: true }, encoding: { x, y, color: { field: 'name', type: 'nominal', title: 'strategy', sort: names, legend: null }, tooltip } },
          { mark: { type: 'text', align: 'left', dx: 9, dy: -9, fontSize: 13 }, encoding: { x, y, text: { field: 'label' } } },
        ],
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
    resolve: { scale: { color: 'independent' } },
  });
}
