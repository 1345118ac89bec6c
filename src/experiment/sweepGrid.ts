import type { Summary } from '../report/summary.js';
import { UserError } from '../userError.js';
import type { ParamAssignment, SweepParam } from './scenarioParams.js';
import { estimate, type FigureEstimate } from './sweepStats.js';

/**
 * The grid of a sweep: every combination of the swept values (the first --param varies
 * slowest), each run on `replicates` seeds, and the figures of each point as mean and 95 %
 * confidence interval over its replicates. Shards split the points, never a point's
 * replicates, so merging shards is putting their points side by side.
 */

/** The cartesian product of the params' values, in order (first param slowest). */
export function gridPoints(params: readonly SweepParam[]): ParamAssignment[][] {
  let points: ParamAssignment[][] = [[]];
  for (const param of params) points = points.flatMap((point) => param.values.map((value): ParamAssignment[] => [...point, [param.path, value]]));
  return points;
}

/** `--shard i/N` (i from 0, as Kubernetes' JOB_COMPLETION_INDEX and `sbatch --array=0-…` count). */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || !(count >= 1) || !(index < count)) {
    throw new UserError(`--shard: expected i/N with 0 ≤ i < N, such as 0/4 (the first of four slices), found "${text}"`);
  }
  return { index, count };
}

/** The grid indexes a shard runs: every N-th point from i, so slices are even whatever the grid's shape. */
export function shardPointIndexes(pointCount: number, shard: Shard | undefined): number[] {
  const all = Array.from({ length: pointCount }, (_, i) => i);
  return shard === undefined ? all : all.filter((i) => i % shard.count === shard.index);
}

/** The seed of replicate `r`: the scenario's seed, then the next ones; the same seeds at every point (common random numbers across the grid). */
export function replicateSeed(baseSeed: number, replicate: number): number {
  return baseSeed + replicate;
}

/**
 * The subtrees of summary.json a sweep reports (dotted paths to their numeric leaves). An
 * array's items are keyed by index, as figureValue reads them: `incidents.0.availability` is
 * the availability during the scenario's first incident (or first occurrence of a repeated
 * one), `repeatedIncidents.0.availability` over all occurrences of its first repeated entry,
 * `warmup.steady.blockHitRatios.3` the CDN hit ratio of a steady warm-up's fourth block
 * (docs/warmup.md). Of the warm-up only what the run found is reported, not its settings
 * (tolerance, block, max): how many requests and how much simulated time it took, and the
 * hit ratios of its blocks, so a sweep over churn or capacity shows how the warm-up's course
 * moves with them.
 */
export const SWEEP_FIGURE_ROOTS = [
  'catalogue',
  'warmup.requests',
  'warmup.simulatedSeconds',
  'warmup.finalBlockHitRatio',
  'warmup.steady.blockHitRatios',
  'hitRatio',
  'byteHitRatio',
  'originOffload',
  'originByteOffload',
  'latencyMs.all',
  'latencyMs.byLayer',
  'cdn.availability',
  'cdn.staleness',
  'cdn.origin',
  // docs/capacity.md: the peaks and means; not capacity.busiest, whose rows name different PoPs from run to run.
  'capacity.measuredSeconds',
  'capacity.origin',
  'capacity.pops',
  'capacity.regionals',
  'incidents',
  'repeatedIncidents',
] as const;

/** Figures of the measured requests that are ratios or latencies of them, so have no value when none was measured. */
const UNDEFINED_WHEN_NOTHING_MEASURED: ReadonlySet<string> = new Set(['hitRatio', 'byteHitRatio', 'originOffload', 'originByteOffload', 'latencyMs.all', 'latencyMs.byLayer', 'cdn.availability', 'cdn.staleness']);

/** A figure's value in a summary by dotted path, or undefined when the run has no such figure. */
export function figureValue(summary: unknown, path: string): number | undefined {
  let node: unknown = summary;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'number' && Number.isFinite(node) ? node : undefined;
}

/** Every numeric figure a sweep reports of one run, by dotted path, in summary order (latency `count`s left out: they are request counts, not figures). */
export function sweepFigures(summary: Summary): [string, number][] {
  const figures: [string, number][] = [];
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'number') {
      if (Number.isFinite(node) && !path.endsWith('.count')) figures.push([path, node]);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) walk(child, `${path}.${key}`);
    }
  };
  for (const root of SWEEP_FIGURE_ROOTS) {
    // A run whose warm-up used all of it measured nothing: its ratios and latencies are not 0 but undefined ("–" in the table, no sample).
    if (summary.requests === 0 && UNDEFINED_WHEN_NOTHING_MEASURED.has(root)) continue;
    let node: unknown = summary;
    for (const key of root.split('.')) node = node === null || typeof node !== 'object' ? undefined : (node as Record<string, unknown>)[key];
    walk(node, root);
  }
  return figures;
}

/** One point of the grid with its figures over the replicates. */
export interface SweepPoint {
  values: Record<string, string>;
  figures: Record<string, FigureEstimate>;
}

/** A point's figures from its replicates' summaries (in replicate order). */
export function aggregatePoint(assignments: readonly ParamAssignment[], replicates: readonly Summary[]): SweepPoint {
  const samples = new Map<string, number[]>();
  for (const summary of replicates) {
    for (const [name, value] of sweepFigures(summary)) {
      const list = samples.get(name);
      if (list) list.push(value);
      else samples.set(name, [value]);
    }
  }
  return {
    values: Object.fromEntries(assignments),
    figures: Object.fromEntries([...samples].map(([name, values]) => [name, estimate(values)])),
  };
}
