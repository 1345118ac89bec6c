import type { SweepPoint } from '../experiment/sweepGrid.js';
import type { FigureEstimate } from '../experiment/sweepStats.js';
import { DEFAULT_COLUMNS, formatTableWithin, wrapLine } from './consoleTable.js';
import { csvField } from './csvTable.js';

/**
 * `cdnsim sweep`'s outputs: sweep.json (the contract's shape: params, replicates, and per
 * point the figures' mean and 95 % interval), sweep.csv (one row per point and figure) and
 * the terminal table. Deterministic: no times or paths, so a sharded sweep merged gives the
 * same bytes as one run.
 */

export interface TargetResult {
  /** The other params' values this search held fixed. */
  values: Record<string, string>;
  /** The smallest value found meeting the target (as the scenario takes it), or absent when the upper end does not. */
  value?: string;
  figure?: FigureEstimate;
  /** Whether the figure's whole 95 % interval meets the target there, not only its mean. */
  meetsWithConfidence?: boolean;
  /** --minimize: the largest value tried that does not meet the target. */
  below?: string;
  belowFigure?: FigureEstimate;
  /** --maximize: the smallest value tried that does not meet the target (the answer, `value`, lies below it). */
  above?: string;
  aboveFigure?: FigureEstimate;
}

export interface SweepDocument {
  schemaVersion: 1;
  scenario: string;
  seed: number;
  params: { path: string; values: string[] }[];
  replicates: number;
  /** Present in a shard's sweep.json only: which slice of the grid's points it holds. */
  shard?: { index: number; count: number };
  /** `--target … --minimize …` (or `--maximize …`, docs/capacity.md): the search and what it found; one of minimize and maximize names the param searched. */
  target?: { figure: string; comparison: string; value: number; minimize?: string; maximize?: string; results: TargetResult[] };
  points: SweepPoint[];
}

export function sweepJson(document: SweepDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

export function sweepCsv(document: SweepDocument): string {
  const paths = document.params.map((param) => param.path);
  const header = [...paths, 'figure', 'mean', 'ci95_low', 'ci95_high', 'replicates'];
  const lines = document.points.flatMap((point) =>
    Object.entries(point.figures).map(([figure, estimate]) =>
      [...paths.map((path) => point.values[path] ?? ''), figure, String(estimate.mean), String(estimate.ci95Low), String(estimate.ci95High), String(estimate.n)].map(csvField).join(','),
    ),
  );
  return `${[header.map(csvField).join(','), ...lines].join('\n')}\n`;
}

/** The figures the terminal table shows (all of them are in the files). */
const TABLE_FIGURES: readonly { figure: string; label: string; ratio: boolean }[] = [
  { figure: 'hitRatio.cdn', label: 'CDN hit', ratio: true },
  { figure: 'byteHitRatio.cdn', label: 'byte hit', ratio: true },
  // Negative when whole 5 MB chunks fetched exceed what clients read (spec 4.8, docs/byte-figures.md).
  { figure: 'originByteOffload', label: 'origin byte offload', ratio: true },
  { figure: 'hitRatio.edge', label: 'edge hit', ratio: true },
  { figure: 'latencyMs.all.p95', label: 'p95 ms', ratio: false },
  { figure: 'cdn.staleness.share', label: 'outdated', ratio: true },
  { figure: 'cdn.origin.requests', label: 'origin req', ratio: false },
  { figure: 'originOffload', label: 'offload', ratio: true },
];

/** `76.05 % ± 0.21` or `367 ± 4.1`: the mean and the half-width of its interval. */
export function formatEstimate(estimate: FigureEstimate | undefined, ratio: boolean): string {
  if (estimate === undefined) return '–';
  const half = (estimate.ci95High - estimate.ci95Low) / 2;
  const scale = ratio ? 100 : 1;
  const digits = ratio ? 2 : estimate.mean >= 100 ? 0 : 1;
  const number = (value: number): string => (!ratio && Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits));
  const text = `${number(estimate.mean * scale)}${ratio ? ' %' : ''}`;
  return estimate.n > 1 ? `${text} ± ${number(half * scale)}` : text;
}

/** The sweep's table in `columns` (split into blocks that each repeat the point's values when wider), then the target's answer. */
export function sweepText(document: SweepDocument, columns: number = DEFAULT_COLUMNS): string {
  const paths = document.params.map((param) => param.path);
  const heading = `${document.scenario} · seed ${document.seed}${document.replicates > 1 ? `–${document.seed + document.replicates - 1}` : ''} · ${document.points.length} points × ${document.replicates} replicate${document.replicates === 1 ? '' : 's'}${document.shard ? ` · shard ${document.shard.index}/${document.shard.count}` : ''}${document.replicates > 1 ? ' · mean ± 95 % CI' : ''}`;
  const rows = document.points.map((point) => [...paths.map((path) => point.values[path]), ...TABLE_FIGURES.map((f) => formatEstimate(point.figures[f.figure], f.ratio))]);
  // With several --param, the point is named by all of them: one column joining them keeps each block of a split table readable.
  const named = paths.length > 1 ? rows.map((row) => [row.slice(0, paths.length).join(', '), ...row.slice(paths.length)]) : rows;
  const header = [paths.length > 1 ? paths.join(', ') : (paths[0] ?? ''), ...TABLE_FIGURES.map((f) => f.label)];
  const parts = [...wrapLine(heading, columns), '', formatTableWithin(header, named, columns)];
  if (document.target) parts.push('', ...targetLines(document.target, document.replicates).flatMap((line) => wrapLine(line, columns)));
  return parts.join('\n');
}

/** Whether the answer holds with confidence; one replicate has no interval to speak of (issue 26). */
function confidenceText(replicates: number, meetsWithConfidence: boolean | undefined, otherwise: string): string {
  if (replicates < 2) return 'one replicate, so no confidence interval: --replicates 3 or more gives one';
  return meetsWithConfidence ? 'its whole 95 % interval meets the target' : `the mean meets the target, the 95 % interval ${otherwise}`;
}

function targetLines(target: NonNullable<SweepDocument['target']>, replicates: number): string[] {
  const ratio = target.figure.toLowerCase().includes('ratio') || target.figure.endsWith('share') || /Share(1s|60s)$/.test(target.figure) || target.figure.endsWith('availability') || target.figure.endsWith('Offload');
  return target.results.map((result) => {
    const fixed = Object.entries(result.values).map(([path, value]) => `${path}=${value}`).join(' ');
    const where = fixed ? ` (${fixed})` : '';
    const want = `${target.figure} ${target.comparison} ${target.value}`;
    if (target.maximize !== undefined) {
      if (result.value === undefined) {
        return `target ${want}${where}: not met at the lower end ${result.above} (${formatEstimate(result.aboveFigure, ratio)}); lower the lower value of --param ${target.maximize}`;
      }
      const confidence = confidenceText(replicates, result.meetsWithConfidence, 'reaches past it: run more replicates or take a smaller value');
      const bracket = result.above === undefined ? 'the upper end still meets it' : `${result.above} does not (${formatEstimate(result.aboveFigure, ratio)})`;
      return `target ${want}${where}: largest ${target.maximize} = ${result.value} with ${target.figure} ${formatEstimate(result.figure, ratio)}; ${bracket}; ${confidence}`;
    }
    if (result.value === undefined) {
      return `target ${want}${where}: not met at the upper end ${result.below} (${formatEstimate(result.belowFigure, ratio)}); raise the upper value of --param ${target.minimize}`;
    }
    const confidence = confidenceText(replicates, result.meetsWithConfidence, 'reaches below it: run more replicates or take a larger value');
    const bracket = result.below === undefined ? 'the lower end already meets it' : `${result.below} does not (${formatEstimate(result.belowFigure, ratio)})`;
    return `target ${want}${where}: smallest ${target.minimize} = ${result.value} with ${target.figure} ${formatEstimate(result.figure, ratio)}; ${bracket}; ${confidence}`;
  });
}
