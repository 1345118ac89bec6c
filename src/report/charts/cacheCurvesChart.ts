import type { TopLevelSpec } from 'vega-lite';
import { LAYER_AGGREGATE_NODE } from '../../cache/hitRatioCurves.js';
import type { CurveRow } from './chartInputs.js';
import { chartSpec, PERCENT_FORMAT, TOOLTIP_PERCENT } from './spec.js';
import { CHART_WIDTH } from './theme.js';

/** Nodes drawn beside each layer's aggregate: the smallest, the median and the largest footprint. */
const REPRESENTATIVES = 3;
/** Grid points drawn: every fourth of the 64 per decade (curves.csv keeps them all). */
const POINT_STRIDE = 4;

/** The capacity at which a node's curve first reaches half its highest hit ratio: a size of its working set. */
function footprintOf(rows: readonly CurveRow[]): number {
  const top = rows.reduce((max, row) => Math.max(max, row.hitRatio), 0);
  return rows.find((row) => row.hitRatio >= top / 2)?.capacityBytes ?? Infinity;
}

/** Per layer: its aggregate and the nodes of smallest, median and largest footprint. */
export function representativeCurves(rows: readonly CurveRow[]): { layer: string; node: string; rows: CurveRow[] }[] {
  const byNode = new Map<string, CurveRow[]>();
  for (const row of rows) {
    const id = `${row.layer}\u0000${row.node}`;
    const list = byNode.get(id);
    if (list === undefined) byNode.set(id, [row]);
    else list.push(row);
  }
  const layers = [...new Set(rows.map((row) => row.layer))];
  return layers.flatMap((layer) => {
    const nodes = [...byNode.values()].filter((list) => list[0].layer === layer);
    const aggregate = nodes.filter((list) => list[0].node === LAYER_AGGREGATE_NODE);
    const others = nodes.filter((list) => list[0].node !== LAYER_AGGREGATE_NODE).sort((a, b) => footprintOf(a) - footprintOf(b) || a[0].node.localeCompare(b[0].node));
    const picked = others.length <= REPRESENTATIVES ? others : [others[0], others[Math.floor(others.length / 2)], others[others.length - 1]];
    return [...aggregate, ...picked].map((list) => ({ layer, node: list[0].node, rows: list }));
  });
}

/**
 * Hit ratio against capacity per cache (curves.csv, docs/curves.md): one panel per layer, the
 * layer's aggregate (every node at that capacity) and the nodes of smallest, median and largest
 * footprint (where each reaches half its highest hit ratio), on a log capacity axis.
 */
export function cacheCurvesChart(rows: readonly CurveRow[]): TopLevelSpec {
  const curves = representativeCurves(rows);
  const layers = [...new Set(curves.map((curve) => curve.layer))];
  const panel = (layer: string) => {
    const values = curves
      .filter((curve) => curve.layer === layer)
      .flatMap((curve) =>
        curve.rows
          .filter((_, i) => i % POINT_STRIDE === 0 || i === curve.rows.length - 1)
          .map((row) => ({ series: curve.node === LAYER_AGGREGATE_NODE ? `${layer}: every node` : curve.node, capacityGb: row.capacityBytes / 1e9, hitRatio: row.hitRatio, byteHitRatio: row.byteHitRatio })),
      );
    return {
      width: CHART_WIDTH,
      height: 240,
      data: { values },
      mark: { type: 'line' },
      encoding: {
        x: { field: 'capacityGb', type: 'quantitative', title: `${layer} cache capacity (GB, log scale)`, scale: { type: 'log' } },
        y: { field: 'hitRatio', type: 'quantitative', title: `${layer} hit ratio`, axis: { format: PERCENT_FORMAT }, scale: { domain: [0, 1] } },
        color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'right', direction: 'vertical', labelLimit: 0 } },
        tooltip: [
          { field: 'series' },
          { field: 'capacityGb', title: 'capacity (GB)', format: ',.3f' },
          { field: 'hitRatio', title: 'hit ratio', format: TOOLTIP_PERCENT },
          { field: 'byteHitRatio', title: 'byte hit ratio', format: TOOLTIP_PERCENT },
        ],
      },
    };
  };
  return chartSpec('Hit ratio against capacity, every cache from one run', 'byte stack distances of LRU (docs/curves.md); each layer: all its nodes at one capacity, and the nodes of smallest, median and largest footprint', {
    vconcat: layers.map(panel),
  });
}
