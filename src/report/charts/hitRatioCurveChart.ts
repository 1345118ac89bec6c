import type { TopLevelSpec } from 'vega-lite';
import { parseSize } from '../../units.js';
import type { ReplayRow, SweepFile } from './chartInputs.js';
import { chartSpec, PERCENT_FORMAT, TOOLTIP_PERCENT } from './spec.js';
import { CHART_HEIGHT, PALETTE } from './theme.js';

/**
 * One point of a hit-ratio curve, with its 95 % interval when replicated. A curve is a
 * (panel, colour, dash) triple: the panel is the measure (hit ratio or byte hit ratio), the
 * colour the layer or policy, the dash the value of the sweep's other parameters.
 */
export interface CurvePoint {
  /** "hit ratio" or "byte hit ratio". */
  panel: string;
  /** The layer (sweep: edge, regional, cdn) or the policy (replay). */
  colour: string;
  /** The other parameters' values ("traffic.rate=10k/s") or the replay's TTL; "" when there is one. */
  dash: string;
  /** The summary figure or the replay row the point comes from, for the tooltip. */
  figure: string;
  size: number;
  hitRatio: number;
  low: number | null;
  high: number | null;
}

/** A sweep's --target: the bound as a line, and the value each search found as a mark on x. */
export interface CurveTarget {
  /** The panel the bound is drawn in, or null when the figure is not a hit ratio of this chart. */
  panel: string | null;
  /** "hitRatio.cdn ≥ 95 %". */
  text: string;
  value: number;
  /** One per search (per combination of the other parameters): the smallest (or largest) value that met the bound. */
  answers: { size: number; dash: string; label: string; where: string }[];
}

export interface Curves {
  points: CurvePoint[];
  /** The x axis: what the size counts ("edge.capacity (bytes, log scale)", "cache size (objects, log scale)"). */
  sizeTitle: string;
  /** What the chart is named after: "edge.capacity", "cache size". */
  against: string;
  /** What the colour and the dash stand for, for the legends. */
  colourTitle: string;
  dashTitle: string;
  target: CurveTarget | null;
  /** Why no curve can be drawn, or null. */
  skip: string | null;
}

const skipped = (skip: string): Curves => ({ points: [], sizeTitle: '', against: '', colourTitle: '', dashTitle: '', target: null, skip });

/** A sweep parameter's value as a size: bytes ("10GB"), or a plain number. */
function sizeOf(value: string | number): number | null {
  if (typeof value === 'number') return value;
  const parsed = parseSize(value);
  return parsed.ok ? parsed.value : null;
}

const HIT_RATIO_FIGURE = /^(byteHitRatio|hitRatio)\.(.+)$/;
const panelOf = (measure: string): string => (measure === 'byteHitRatio' ? 'byte hit ratio' : 'hit ratio');

/** The target of a --target sweep, as sweep.json writes it (minimize, or maximize when the bound caps the figure from above). */
interface SweepTarget {
  figure: string;
  comparison: string;
  value: number;
  minimize?: string;
  maximize?: string;
  results: { values: Record<string, string | number>; value?: string | number }[];
}

/**
 * Curves from a sweep (sweep.json): x is the first parameter whose values are all sizes or
 * numbers (the searched one for a --target sweep); one panel per measure, one colour per
 * layer, one dash per value of the other parameters.
 */
export function curvesFromSweep(sweep: SweepFile): Curves {
  const target = (sweep as SweepFile & { target?: SweepTarget }).target;
  const searched = target?.minimize ?? target?.maximize;
  const sizeParam =
    sweep.params.find((param) => param.path === searched) ?? sweep.params.find((param) => param.values.every((value) => sizeOf(value) !== null));
  if (sizeParam === undefined) return skipped(`no swept parameter is a size or a number (${sweep.params.map((param) => param.path).join(', ')})`);
  const others = sweep.params.filter((param) => param !== sizeParam).map((param) => param.path);
  // One other parameter: its values are the dash legend's labels, under its path as the title.
  const dashOf = (values: Record<string, string | number>): string => others.map((path) => (others.length === 1 ? `${values[path]}` : `${path}=${values[path]}`)).join(', ');
  const points: CurvePoint[] = [];
  for (const point of sweep.points) {
    const size = sizeOf(point.values[sizeParam.path]);
    if (size === null) continue;
    for (const [figure, stats] of Object.entries(point.figures)) {
      const match = HIT_RATIO_FIGURE.exec(figure);
      if (match === null) continue;
      points.push({ panel: panelOf(match[1]), colour: match[2], dash: dashOf(point.values), figure, size, hitRatio: stats.mean, low: stats.n > 1 ? stats.ci95Low : null, high: stats.n > 1 ? stats.ci95High : null });
    }
  }
  if (points.length === 0) return skipped('the sweep reports no hit-ratio figure (hitRatio.* or byteHitRatio.*)');
  const bytes = sizeParam.values.some((value) => typeof value === 'string');
  return {
    points,
    sizeTitle: `${sizeParam.path} (${bytes ? 'bytes' : 'value'}, log scale)`,
    against: sizeParam.path,
    colourTitle: 'layer',
    dashTitle: others.join(', '),
    target: target === undefined ? null : curveTarget(target, dashOf, (values) => others.map((path) => `${path}=${values[path]}`).join(', ')),
    skip: null,
  };
}

type ValuesText = (values: Record<string, string | number>) => string;

function curveTarget(target: SweepTarget, dashOf: ValuesText, whereOf: ValuesText): CurveTarget {
  const match = HIT_RATIO_FIGURE.exec(target.figure);
  const comparison = target.comparison.replace('>=', '≥').replace('<=', '≤');
  const shown = match === null ? String(target.value) : `${(target.value * 100).toFixed(4).replace(/\.?0+$/, '')} %`;
  const answers = target.results.flatMap((result) => {
    if (result.value === undefined) return [];
    const size = sizeOf(result.value);
    return size === null ? [] : [{ size, dash: dashOf(result.values), label: `${result.value}`, where: whereOf(result.values) }];
  });
  return { panel: match === null ? null : panelOf(match[1]), text: `${target.figure} ${comparison} ${shown}`, value: target.value, answers };
}

/** Curves from `cdnsim replay` rows: hit ratio and byte hit ratio (1 − miss ratios) per policy (and TTL) at each cache size. */
export function curvesFromReplay(rows: readonly ReplayRow[]): Curves {
  const sizes = new Set(rows.map((row) => row.cacheSize));
  if (sizes.size < 2) return skipped(`the replay used ${sizes.size} cache size; a curve needs two or more (--cache-size 0.01,0.05,0.1)`);
  const ttls = new Set(rows.map((row) => row.ttlSeconds));
  const countMode = rows[0]?.countMode ?? false;
  const points = rows.flatMap((row) => {
    const dash = ttls.size > 1 ? `ttl ${row.ttlSeconds === null ? 'none' : `${row.ttlSeconds} s`}` : '';
    const base = { colour: row.policy, dash, figure: row.policy, size: row.cacheSize, low: null, high: null };
    return [
      { ...base, panel: 'hit ratio', hitRatio: 1 - row.missRatio },
      // A cache sized in objects has a byte hit ratio too, but the panel of requests is the one that was sized.
      ...(countMode ? [] : [{ ...base, panel: 'byte hit ratio', hitRatio: 1 - row.byteMissRatio }]),
    ];
  });
  const unit = countMode ? 'objects' : 'bytes';
  return { points, sizeTitle: `cache size (${unit}, log scale)`, against: 'cache size', colourTitle: 'policy', dashTitle: ttls.size > 1 ? 'TTL' : '', target: null, skip: null };
}

/**
 * Chart 5, hit ratio against cache size (or another swept number): a panel per measure (hit
 * ratio, byte hit ratio), one colour per layer or policy, one dash per value of the other
 * parameters, the 95 % interval of replicated sweeps as a band of the line's colour; a
 * --target sweep draws its bound and the value each search found. Curves that coincide draw
 * as concentric points (sizes shrink in the legend's order), so none hides another.
 */
export function hitRatioCurveChart(curves: Curves): TopLevelSpec {
  const sizes = curves.points.map((point) => point.size);
  const x = {
    field: 'size',
    type: 'quantitative',
    title: curves.sizeTitle,
    scale: { type: 'log', domain: [Math.min(...sizes), Math.max(...sizes)], nice: false },
    // A log axis labels 2, 3, 4 … between decades; the ones that would touch are left out.
    axis: { format: '~s', labelOverlap: 'greedy', labelSeparation: 8 },
  };
  const colours = [...new Set(curves.points.map((point) => point.colour))];
  const dashes = [...new Set(curves.points.map((point) => point.dash))];
  const color = {
    field: 'colour',
    type: 'nominal',
    title: curves.colourTitle,
    sort: colours,
    // Past the eight colour-blind-safe colours, twenty distinct ones rather than repeats.
    scale: colours.length <= PALETTE.length ? { domain: colours, range: [...PALETTE].slice(0, colours.length) } : { domain: colours, scheme: 'tableau20' },
    // The band layer's opacity would make the legend's symbols pale: the legend shows the line's colour.
    legend: { orient: 'right', direction: 'vertical', labelLimit: 0, symbolOpacity: 1 },
  };
  const manyDashes = dashes.length > 1;
  const strokeDash = manyDashes ? { strokeDash: { field: 'dash', type: 'nominal', title: curves.dashTitle, sort: dashes, legend: { orient: 'bottom', direction: 'vertical', labelLimit: 0 } } } : {};
  const shape = manyDashes ? { shape: { field: 'dash', type: 'nominal', title: curves.dashTitle, sort: dashes } } : {};
  // Sizes shrink with the dash (or, with one dash, the colour): the series most likely to
  // coincide, one figure at several values of another parameter, draw as rings.
  const order = (point: CurvePoint) => (manyDashes ? dashes.indexOf(point.dash) : colours.indexOf(point.colour));
  const seriesCount = manyDashes ? dashes.length : colours.length;
  const values = curves.points.map((point) => ({ ...point, order: order(point) }));
  const tooltip = [
    { field: 'figure' },
    ...(manyDashes ? [{ field: 'dash', title: curves.dashTitle }] : []),
    { field: 'size', title: curves.against, format: ',' },
    { field: 'hitRatio', title: 'mean', format: TOOLTIP_PERCENT },
    { field: 'low', title: '95 % low', format: TOOLTIP_PERCENT },
    { field: 'high', title: '95 % high', format: TOOLTIP_PERCENT },
  ];
  const panels = ['hit ratio', 'byte hit ratio'].filter((panel) => curves.points.some((point) => point.panel === panel));
  const target = curves.target;
  const panel = (name: string) => {
    const data = values.filter((point) => point.panel === name);
    const withBand = data.some((point) => point.low !== null && point.high !== null);
    const y = { field: 'hitRatio', type: 'quantitative', title: name, axis: { format: PERCENT_FORMAT }, scale: { domain: [0, 1] } };
    return {
      width: panels.length > 1 ? 420 : 600,
      height: CHART_HEIGHT,
      data: { values: data },
      layer: [
        ...(withBand
          ? [{ transform: [{ filter: 'datum.low !== null' }], mark: { type: 'errorband', opacity: 0.18 }, encoding: { x, y: { field: 'low', type: 'quantitative', title: name }, y2: { field: 'high' }, color, detail: { field: 'dash' } } }]
          : []),
        {
          mark: { type: 'line', point: false },
          encoding: { x, y, color, ...strokeDash, detail: { field: 'dash' }, order: { field: 'size' } },
        },
        {
          mark: { type: 'point', filled: true, stroke: '#000000', strokeWidth: 0.4, opacity: 1 },
          encoding: {
            x,
            y,
            color,
            ...shape,
            size: { field: 'order', type: 'quantitative', scale: { domain: [0, Math.max(1, seriesCount - 1)], range: [150, 30] }, legend: null },
            order: { field: 'order', type: 'quantitative' },
            tooltip,
          },
        },
        ...(target !== null && target.panel === name ? targetLayers(target) : []),
      ],
    };
  };
  const subtitle = [
    `a line per ${curves.colourTitle}${curves.points.some((point) => point.low !== null) ? '; band: 95 % interval over replicates' : ''}; coinciding curves show as rings`,
    ...(target !== null ? [`target ${target.text}: ${target.answers.length === 0 ? 'not met within the swept range' : `met from ${target.answers.map((answer) => answer.label).join(', ')}`}`] : []),
  ];
  const body = panels.length === 1 ? panel(panels[0]) : { hconcat: panels.map(panel), resolve: { scale: { color: 'shared' } } };
  return chartSpec(`Hit ratio against ${curves.against}`, subtitle, body);
}

/** The bound as a dashed horizontal rule, each search's answer as a vertical rule labelled with its value. */
function targetLayers(target: CurveTarget): Record<string, unknown>[] {
  return [
    { data: { values: [{ value: target.value, text: `target ${target.text}` }] }, mark: { type: 'rule', color: '#000000', strokeDash: [6, 4], strokeWidth: 1.5 }, encoding: { y: { field: 'value', type: 'quantitative' } } },
    { data: { values: [{ value: target.value, text: `target ${target.text}` }] }, mark: { type: 'text', align: 'left', baseline: 'bottom', x: 4, dy: -3, fontSize: 12 }, encoding: { y: { field: 'value', type: 'quantitative' }, text: { field: 'text' } } },
    ...(target.answers.length === 0
      ? []
      : [
          { data: { values: target.answers }, mark: { type: 'rule', color: '#000000', strokeWidth: 1 }, encoding: { x: { field: 'size', type: 'quantitative' } } },
          {
            // One row each, from the top, so answers close together do not print over each other.
            data: { values: target.answers.map((answer, i) => ({ ...answer, rowPx: 4 + 16 * i, text: answer.where === '' ? answer.label : `${answer.label} (${answer.where})` })) },
            mark: { type: 'text', align: 'left', baseline: 'top', dx: 4, fontSize: 12 },
            encoding: { x: { field: 'size', type: 'quantitative' }, y: { field: 'rowPx', type: 'quantitative', scale: null }, text: { field: 'text' } },
          },
        ]),
  ];
}
