import { aggregateHistogram, curvePoints, CURVES_COLUMNS, LAYER_AGGREGATE_NODE, type NodeCurve } from '../cache/hitRatioCurves.js';
import { csvText, type CsvCell } from './csvTable.js';
import { roundTo } from './rounding.js';

/**
 * curves.csv (docs/curves.md): per layer, the layer's aggregate (every node at the same
 * capacity, node `all`), then each node with measured lookups, in summary.json's order; one
 * row per grid capacity from the node's largest object to where its curve is flat.
 */
export function curvesCsv(curves: readonly NodeCurve[]): string {
  const rows: CsvCell[][] = [];
  const layers = [...new Set(curves.map((curve) => curve.layer))];
  for (const layer of layers) {
    const ofLayer = curves.filter((curve) => curve.layer === layer);
    const all: NodeCurve = { layer, node: LAYER_AGGREGATE_NODE, histogram: aggregateHistogram(ofLayer.map((curve) => curve.histogram)) };
    for (const curve of [all, ...ofLayer]) {
      for (const point of curvePoints(curve.histogram)) rows.push([layer, curve.node, point.capacityBytes, roundTo(point.hitRatio, 6), roundTo(point.byteHitRatio, 6)]);
    }
  }
  return csvText(CURVES_COLUMNS, rows);
}
