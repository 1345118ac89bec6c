import type { TopLevelSpec } from 'vega-lite';
import { parseSize } from '../../units.js';
import type { ReplayRow, SweepFile } from './chartInputs.js';
import { chartSpec, PERCENT_FORMAT, TOOLTIP_PERCENT } from './spec.js';

/** One point of a hit-ratio curve: a series (policy, layer) at one cache size, with its 95 % interval when replicated. */
export interface CurvePoint {
  series: string;
  size: number;
  hitRatio: number;
  low: number | null;
  high: number | null;
}

export interface Curves {
  points: CurvePoint[];
  /** The x axis: what the size counts ("edge.capacity (bytes)", "cache size (objects)"). */
  sizeTitle: string;
  /** Why no curve can be drawn, or null. */
  skip: string | null;
}

/** A sweep parameter's value as a size: bytes ("10GB"), or a plain number. */
function sizeOf(value: string | number): number | null {
  if (typeof value === 'number') return value;
  const parsed = parseSize(value);
  return parsed.ok ? parsed.value : null;
}

/**
 * Curves from a sweep (sweep.json): x is the first parameter whose values are all sizes or
 * numbers, one curve per hit-ratio figure and per value of the other parameters.
 */
export function curvesFromSweep(sweep: SweepFile): Curves {
  const sizeParam = sweep.params.find((param) => param.values.every((value) => sizeOf(value) !== null));
  if (sizeParam === undefined) return { points: [], sizeTitle: '', skip: `no swept parameter is a size or a number (${sweep.params.map((param) => param.path).join(', ')})` };
  const others = sweep.params.filter((param) => param !== sizeParam).map((param) => param.path);
  const points: CurvePoint[] = [];
  for (const point of sweep.points) {
    const size = sizeOf(point.values[sizeParam.path]);
    if (size === null) continue;
    for (const [figure, stats] of Object.entries(point.figures)) {
      if (!/^(byteH|h)itRatio\./.test(figure)) continue;
      const series = [figure, ...others.map((path) => `${path}=${point.values[path]}`)].join(', ');
      points.push({ series, size, hitRatio: stats.mean, low: stats.n > 1 ? stats.ci95Low : null, high: stats.n > 1 ? stats.ci95High : null });
    }
  }
  if (points.length === 0) return { points, sizeTitle: '', skip: 'the sweep reports no hit-ratio figure (hitRatio.* or byteHitRatio.*)' };
  const bytes = sizeParam.values.some((value) => typeof value === 'string');
  return { points, sizeTitle: `${sizeParam.path} (${bytes ? 'bytes' : 'value'}, log scale)`, skip: null };
}

/** Curves from `cdnsim replay` rows: hit ratio (1 − miss ratio) per policy (and TTL) at each cache size. */
export function curvesFromReplay(rows: readonly ReplayRow[]): Curves {
  const sizes = new Set(rows.map((row) => row.cacheSize));
  if (sizes.size < 2) return { points: [], sizeTitle: '', skip: `the replay used ${sizes.size} cache size; a curve needs two or more (--cache-size 0.01,0.05,0.1)` };
  const ttls = new Set(rows.map((row) => row.ttlSeconds));
  const points = rows.map((row) => ({
    series: ttls.size > 1 ? `${row.policy}, ttl ${row.ttlSeconds === null ? 'none' : `${row.ttlSeconds} s`}` : row.policy,
    size: row.cacheSize,
    hitRatio: 1 - row.missRatio,
    low: null,
    high: null,
  }));
  return { points, sizeTitle: `cache size (${rows[0]?.countMode ? 'objects' : 'bytes'}, log scale)`, skip: null };
}

/**
 * Chart 5, hit ratio against cache size (the miss-ratio curve read upside down): one line
 * per policy or layer, the 95 % interval of replicated sweeps as a band.
 */
export function missRatioChart(curves: Curves): TopLevelSpec {
  const x = { field: 'size', type: 'quantitative', title: curves.sizeTitle, scale: { type: 'log' }, axis: { format: '~s' } };
  const color = { field: 'series', type: 'nominal', title: null, legend: { orient: 'right', direction: 'vertical', labelLimit: 0 } };
  const withBand = curves.points.filter((point) => point.low !== null && point.high !== null);
  return chartSpec('Hit ratio against cache size', 'one line per policy or layer; band: 95 % interval over replicates', {
    width: 600,
    height: 340,
    data: { values: curves.points },
    layer: [
      ...(withBand.length > 0
        ? [{ transform: [{ filter: 'datum.low !== null' }], mark: { type: 'errorband', opacity: 0.25 }, encoding: { x, y: { field: 'low', type: 'quantitative', title: 'hit ratio' }, y2: { field: 'high' }, color } }]
        : []),
      {
        mark: { type: 'line', point: { size: 70, filled: true } },
        encoding: {
          x,
          y: { field: 'hitRatio', type: 'quantitative', title: 'hit ratio', axis: { format: PERCENT_FORMAT }, scale: { domain: [0, 1] } },
          color,
          tooltip: [{ field: 'series' }, { field: 'size', format: ',' }, { field: 'hitRatio', title: 'hit ratio', format: TOOLTIP_PERCENT }, { field: 'low', title: '95 % low', format: TOOLTIP_PERCENT }, { field: 'high', title: '95 % high', format: TOOLTIP_PERCENT }],
        },
      },
    ],
  });
}
