import { DURATION_EXPECTED, parseDuration, parseFraction, parseRate, parseSize } from '../units.js';
import { UserError, echoValue } from '../userError.js';
import type { FigureEstimate } from './sweepStats.js';

/**
 * `--target 'hitRatio.cdn>=0.95' --minimize edge.capacity`: the smallest value of a
 * monotone parameter whose mean figure meets the target, found by bisection between the
 * two ends of the parameter's --param values. `--maximize` is its mirror: the largest value
 * that still meets it (`--target 'capacity.pops.maxUplinkShare1s<=0.8' --maximize traffic.rate`).
 */

/** Which end of the parameter the search wants. */
export type SeekDirection = 'minimize' | 'maximize';

export type Comparison = '>=' | '<=' | '>' | '<';

export interface Target {
  figure: string;
  comparison: Comparison;
  value: number;
  /** As written, for reports. */
  text: string;
}

export function parseTarget(text: string): Target {
  const match = /^\s*([A-Za-z_][\w.]*)\s*(>=|<=|>|<)\s*(-?[\d.]+(?:e-?\d+)?%?)\s*$/.exec(text);
  const number = match ? (match[3].endsWith('%') ? parseFraction(match[3]) : { ok: true as const, value: Number(match[3]) }) : undefined;
  if (!match || !number?.ok || !Number.isFinite(number.value)) {
    throw new UserError(`--target: expected FIGURE OP NUMBER such as 'hitRatio.cdn>=0.95' or 'latencyMs.all.p95<=50' (OP one of >=, <=, >, <), found "${echoValue(text)}"`);
  }
  return { figure: match[1], comparison: match[2] as Comparison, value: number.value, text: text.trim() };
}

export function meetsTarget(target: Target, value: number): boolean {
  switch (target.comparison) {
    case '>=':
      return value >= target.value;
    case '<=':
      return value <= target.value;
    case '>':
      return value > target.value;
    case '<':
      return value < target.value;
  }
}

/** Whether the whole 95 % interval meets the target, not only the mean. */
export function meetsWithConfidence(target: Target, figure: FigureEstimate): boolean {
  return target.comparison === '>=' || target.comparison === '>' ? meetsTarget(target, figure.ci95Low) : meetsTarget(target, figure.ci95High);
}

/**
 * How a parameter's values are written, read from the two ends given on the command line,
 * so that the bisection's midpoints are written the same way (the scenario schema parses
 * them again): plain numbers, sizes (whole bytes), durations (whole ms) or rates (per second).
 */
export interface ValueScale {
  kind: 'number' | 'integer' | 'size' | 'duration' | 'rate';
  parse(text: string): number;
  format(value: number): string;
  /** The nearest value this scale writes: a midpoint is rounded to it, so the run gets exactly the value the bisection reasons about. */
  round(value: number): number;
}

const significant = (digits: number) => (value: number): number => Number(value.toPrecision(digits));

/** A size in the largest decimal unit it reaches (`286.6MB`), as the scenario schema reads it. */
function formatSize(bytes: number): string {
  for (const [unit, factor] of [['GB', 1e9], ['MB', 1e6], ['KB', 1e3]] as const) {
    if (bytes >= factor) return `${bytes / factor}${unit}`;
  }
  return String(bytes);
}

const SCALES: readonly ValueScale[] = [
  { kind: 'integer', parse: (text) => (/^\d+$/.test(text) ? Number(text) : NaN), format: (v) => String(v), round: Math.round },
  { kind: 'number', parse: (text) => (/^-?[\d.]+(e-?\d+)?$/.test(text) ? Number(text) : NaN), format: (v) => String(v), round: significant(6) },
  // Four significant digits: 0.1 % steps, far finer than any tolerance worth running.
  { kind: 'size', parse: (text) => orNaN(parseSize(text)), format: formatSize, round: (v) => Math.round(significant(4)(v)) },
  { kind: 'duration', parse: (text) => orNaN(parseDuration(text)), format: (v) => `${v}ms`, round: Math.round },
  { kind: 'rate', parse: (text) => orNaN(parseRate(text)), format: (v) => `${v}/s`, round: significant(6) },
];

function orNaN(parsed: { ok: true; value: number } | { ok: false }): number {
  return parsed.ok ? parsed.value : NaN;
}

/** The scale both ends are written in, or a user error when --minimize (or --maximize) cannot bisect them. */
export function valueScale(path: string, values: readonly string[], direction: SeekDirection = 'minimize'): ValueScale {
  for (const scale of SCALES) {
    const parsed = values.map((value) => scale.parse(value));
    if (parsed.every((value) => Number.isFinite(value))) return scale;
  }
  throw new UserError(
    `--${direction} ${path}: expected numeric values to bisect between (numbers, sizes such as 1GB, ${DURATION_EXPECTED}, or rates such as 10k/s), found ${values.map((v) => `"${echoValue(v)}"`).join(', ')}`,
  );
}

/** One value tried by the bisection, with the figure there. */
export interface Probe {
  value: number;
  figure: FigureEstimate;
  meets: boolean;
}

export interface SeekResult {
  /** The smallest value tried whose mean meets the target; undefined when even the upper end does not. */
  found?: Probe;
  /** The largest value tried that does not meet it (the answer lies above it). */
  below?: Probe;
  probes: Probe[];
}

/** What seekMaximum found: the mirror of SeekResult. */
export interface MaximumResult {
  /** The largest value tried whose mean meets the target; undefined when even the lower end does not. */
  found?: Probe;
  /** The smallest value tried that does not meet it (the answer lies below it). */
  above?: Probe;
  probes: Probe[];
}

/**
 * The ends met the target the wrong way round for the search: the figure moves the other way
 * in the parameter (or is not monotone), so the other search is the one to ask for.
 */
function wrongWay(direction: SeekDirection, target: Target, met: Probe, missed: Probe, format: (value: number) => string): UserError {
  const other = direction === 'minimize' ? 'maximize' : 'minimize';
  return new UserError(
    `--${direction}: ${target.text} is met at ${format(met.value)} (${target.figure} ${met.figure.mean}) but not at ${format(missed.value)} (${missed.figure.mean}): ` +
      `the figure moves the other way in this parameter, so the ${direction === 'minimize' ? 'smallest' : 'largest'} value is not what to ask; use --${other} for the ${direction === 'minimize' ? 'largest' : 'smallest'} value meeting it`,
  );
}

export interface SeekOptions {
  /** Stop when upper/lower ≤ 1 + tolerance (relative width of the bracket). */
  tolerance: number;
  maxProbes: number;
  /** The value a midpoint is rounded to (ValueScale.round). */
  round: (value: number) => number;
  /** How a value is written in messages (ValueScale.format); plain numbers without it. */
  format?: (value: number) => string;
}

/**
 * Bisection for the smallest value in [low, high] meeting the target, for a figure
 * monotone in the value: the ends first, then midpoints (geometric when both ends are
 * positive: capacities and rates span orders of magnitude) until the bracket is narrower
 * than the tolerance. `evaluate` measures the figure at a value.
 */
export async function seekMinimum(low: number, high: number, target: Target, evaluate: (values: number[]) => Promise<FigureEstimate[]>, options: SeekOptions): Promise<SeekResult> {
  const { probe, probes } = prober(target, evaluate);
  const [lowProbe, highProbe] = await probe([low, high]);
  if (lowProbe.meets && !highProbe.meets) throw wrongWay('minimize', target, lowProbe, highProbe, options.format ?? String);
  if (!highProbe.meets) return { below: highProbe, probes };
  if (lowProbe.meets) return { found: lowProbe, probes };
  const [below, above] = await narrow(lowProbe, highProbe, probe, probes, options);
  return { found: above, below, probes };
}

/**
 * The mirror of seekMinimum: the largest value in [low, high] whose mean figure meets the
 * target, for a figure that meets it at small values and stops meeting it at some point
 * (a load figure under a bound as the traffic rate grows). Geometric midpoints as there.
 */
export async function seekMaximum(low: number, high: number, target: Target, evaluate: (values: number[]) => Promise<FigureEstimate[]>, options: SeekOptions): Promise<MaximumResult> {
  const { probe, probes } = prober(target, evaluate);
  const [lowProbe, highProbe] = await probe([low, high]);
  if (!lowProbe.meets && highProbe.meets) throw wrongWay('maximize', target, highProbe, lowProbe, options.format ?? String);
  if (!lowProbe.meets) return { above: lowProbe, probes };
  if (highProbe.meets) return { found: highProbe, probes };
  const [met, missed] = await narrow(lowProbe, highProbe, probe, probes, options);
  return { found: met, above: missed, probes };
}

/** Measures the figure at some values and keeps every probe, in order. */
function prober(target: Target, evaluate: (values: number[]) => Promise<FigureEstimate[]>): { probe: (values: number[]) => Promise<Probe[]>; probes: Probe[] } {
  const probes: Probe[] = [];
  const probe = async (values: number[]): Promise<Probe[]> => {
    const figures = await evaluate(values);
    const made = values.map((value, i) => ({ value, figure: figures[i], meets: meetsTarget(target, figures[i].mean) }));
    probes.push(...made);
    return made;
  };
  return { probe, probes };
}

/**
 * Narrows a bracket whose ends differ in meeting the target (either way round) by midpoints,
 * geometric when the lower end is positive, until it is within the tolerance, the probes run
 * out or the values can be written no closer; returns the last [lower, upper].
 */
async function narrow(lower: Probe, upper: Probe, probe: (values: number[]) => Promise<Probe[]>, probes: readonly Probe[], options: SeekOptions): Promise<[Probe, Probe]> {
  while (probes.length < options.maxProbes && upper.value > lower.value * (1 + options.tolerance)) {
    const raw = lower.value > 0 ? Math.sqrt(lower.value * upper.value) : (lower.value + upper.value) / 2;
    const middle = options.round(raw);
    if (middle <= lower.value || middle >= upper.value) break;
    const [made] = await probe([middle]);
    if (made.meets === upper.meets) upper = made;
    else lower = made;
  }
  return [lower, upper];
}
