import type { TopLevelSpec } from 'vega-lite';
import type { Bounds } from '../../metrics/statedVerdict.js';
import type { StatedCsvRow } from './chartInputs.js';
import { chartSpec } from './spec.js';
import { COLOURS } from './theme.js';

/**
 * Panels: one x axis per unit, each titled with it, with its tick format (ratios as
 * percentages, large values with thousands separators); a share of uplink capacity is not a
 * share of requests, so it has a panel of its own.
 */
const PANELS = [
  { unit: 'ms', title: 'mean latency (ms)', format: ',~r' },
  { unit: 'ratio', title: 'share of requests (ratio 0–1)', format: '.0%' },
  { unit: 'uplinkShare', title: 'peak egress, share of the uplink (ratio 0–1)', format: '.1%' },
  { unit: 'count', title: 'count', format: ',~r' },
  { unit: 'seconds', title: 'lifetime (s)', format: ',~r' },
  { unit: 'bytes', title: 'size (bytes)', format: '~s' },
] as const;

/** The panel a stated row goes to: by its unit, the uplink rows (spec 1.1 "100 Gbit/s uplinks") apart. */
function panelOf(row: StatedCsvRow): string {
  const unit = row.unit === 'ratio' && row.id.startsWith('uplink.') ? 'uplinkShare' : row.unit;
  return PANELS.find((panel) => panel.unit === unit)?.title ?? row.unit;
}

interface StatedPoint {
  figure: string;
  panel: string;
  low: number;
  high: number;
  simulated: number;
  verdict: string;
  stated: string;
  note: string;
}

/**
 * Chart 1, stated against simulated: each stated figure (spec 1.1, 4.8, 4.9, 7.1, 8) as the
 * band of values within it, and the run's value as a point coloured by its verdict. Rows
 * that do not apply to the run, and comparison rows not judged (statedFigures.ts), are left
 * out (the report's table lists them).
 */
export function statedChart(rows: readonly StatedCsvRow[], bounds: Readonly<Record<string, Bounds>>): TopLevelSpec {
  const points: StatedPoint[] = [];
  for (const row of rows) {
    const rowBounds = bounds[row.id];
    if (row.simulated === null || row.verdict === 'not-applicable' || rowBounds === undefined) continue;
    const low = rowBounds.min ?? 0;
    // An open-ended bound ("at least 95 %") is drawn to the end of the scale: 1 for a ratio, past the value otherwise.
    const high = rowBounds.max ?? (row.unit === 'ratio' ? 1 : Math.max(low, row.simulated) * 1.1);
    points.push({ figure: row.figure.split(':')[0], panel: panelOf(row), low, high, simulated: row.simulated, verdict: row.verdict, stated: row.stated, note: row.note });
  }
  const left = rows.length - points.length;
  const tooltip = [
    { field: 'figure', title: 'figure' },
    { field: 'stated', title: 'stated' },
    { field: 'simulated', title: 'simulated', format: ',.4~f' },
    { field: 'verdict', title: 'verdict' },
    { field: 'note', title: 'note' },
  ];
  const y = { field: 'figure', type: 'nominal', title: null, sort: null, axis: { labelLimit: 0 } };
  return chartSpec(
    'Stated figures against the simulation',
    `green band: within the stated value; point: the run (${left} row(s) not applicable to this run are in the table)`,
    {
      vconcat: PANELS.filter((panel) => points.some((point) => point.panel === panel.title))
        .map(({ title: panel, format }) => ({
          title: { text: panel, fontSize: 14 },
          width: 520,
          height: { step: 30 },
          data: { values: points.filter((point) => point.panel === panel) },
          layer: [
            { mark: { type: 'bar', color: COLOURS.stated, opacity: 0.3, height: { band: 0.7 } }, encoding: { y, x: { field: 'low', type: 'quantitative', title: null, scale: { zero: false }, axis: { format, tickCount: 6 } }, x2: { field: 'high' }, tooltip } },
            { mark: { type: 'tick', color: COLOURS.stated, thickness: 3, bandSize: 22 }, encoding: { y, x: { field: 'low', type: 'quantitative' }, tooltip } },
            { mark: { type: 'point', size: 140, filled: true, stroke: '#000000', strokeWidth: 0.5 }, encoding: {
              y,
              x: { field: 'simulated', type: 'quantitative' },
              color: { field: 'verdict', type: 'nominal', title: 'verdict', scale: { domain: ['within', 'outside'], range: [COLOURS.within, COLOURS.outside] } },
              shape: { field: 'verdict', type: 'nominal', title: 'verdict', scale: { domain: ['within', 'outside'], range: ['circle', 'diamond'] } },
              tooltip,
            } },
          ],
        })),
      resolve: { scale: { x: 'independent', y: 'independent' } },
    },
  );
}
