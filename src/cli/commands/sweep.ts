import { basename, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { expectedRequests } from '../../experiment/jobCost.js';
import { loadScenarioRecording } from '../../experiment/recordedCaching.js';
import type { ScenarioJob } from '../../experiment/scenarioJob.js';
import { parseSweepParam, readScenarioData, scenarioWithParams, type ParamAssignment, type SweepParam } from '../../experiment/scenarioParams.js';
import { aggregatePoint, gridPoints, parseShard, replicateSeed, shardPointIndexes, SWEEP_FIGURE_ROOTS, type Shard, type SweepPoint } from '../../experiment/sweepGrid.js';
import { meetsWithConfidence, parseTarget, seekMaximum, seekMinimum, valueScale, type Probe, type SeekDirection, type Target, type ValueScale } from '../../experiment/targetSeek.js';
import { newRunFolder } from '../../report/runFolder.js';
import { sweepCsv, sweepJson, sweepText, type SweepDocument, type TargetResult } from '../../report/sweepReport.js';
import { writeFileAtomic } from '../../report/writeAtomic.js';
import { loadScenarioFile } from '../../scenario/load.js';
import type { Scenario } from '../../scenario/schema.js';
import { UserError } from '../../userError.js';
import { JobPool, parseWorkers, type PoolProgress } from '../jobPool.js';
import { createJobProgressReporter } from '../jobProgress.js';
import { checkRunFolder, claimRunFolder } from '../outputPath.js';
import { runInfo } from './compare.js';
import type { Summary } from '../../report/summary.js';
import { conservationFailure } from '../conservationFailure.js';
import { checkedOverrides, checkRunLength, printResult, RUN_LENGTH_OPTIONS } from './run.js';
import { terminalColumns } from '../terminalColumns.js';

interface SweepArgs {
  scenario: string;
  param: string[];
  replicates: string;
  workers?: string;
  shard?: string;
  target?: string;
  minimize?: string;
  maximize?: string;
  tolerance: string;
  seed?: string;
  requests?: string;
  duration?: string;
  out?: string;
  json: boolean;
  progress: boolean;
  charts: boolean;
}

/** Replicates by default: the fewest that give a confidence interval with some meaning. */
const DEFAULT_REPLICATES = 3;
/** Bisection probes at most (the two ends included): 2^-14 of a bracket is far below any run's noise. */
const MAX_PROBES = 16;

export function sweepCommand(yargs: Argv): Argv {
  return yargs.command<SweepArgs>(
    COMMAND_LINES.sweep.command,
    COMMAND_LINES.sweep.describe,
    (command) =>
      command
        .positional('scenario', { type: 'string', describe: 'scenario file (YAML or JSON)', demandOption: true })
        .option('param', { type: 'string', array: true, demandOption: 'give at least one --param PATH=v1,v2,…, for example --param edge.capacity=1GB,10GB', describe: 'a scenario key path and its values, e.g. edge.capacity=1GB,10GB or traffic.rate=10k/s,100k/s (repeat for a grid)' })
        .option('replicates', { type: 'string', default: String(DEFAULT_REPLICATES), describe: 'runs per point, on seeds seed, seed+1, …' })
        .option('workers', { type: 'string', describe: 'worker threads (default: one per core); results do not depend on it' })
        .option('shard', { type: 'string', describe: 'run slice i of N of the grid (i from 0), e.g. 0/4; join the slices with cdnsim merge' })
        .option('target', { type: 'string', describe: "with --minimize or --maximize: a figure and a bound, e.g. 'hitRatio.cdn>=0.95' or 'capacity.pops.maxUplinkShare1s<=0.8'" })
        .option('minimize', { type: 'string', describe: 'with --target: the --param to bisect between its lowest and highest value for the smallest value meeting the target (the figure must be monotone in it)' })
        .option('maximize', { type: 'string', describe: 'with --target: the --param to bisect for the largest value still meeting the target, e.g. traffic.rate (docs/capacity.md)' })
        .option('tolerance', { type: 'string', default: '5%', describe: 'with --target: stop when the bracket is this narrow (upper/lower − 1)' })
        .options(RUN_LENGTH_OPTIONS)
        .option('out', { type: 'string', describe: 'folder to write (default results/<scenario>/sweep-<run-id>/)' })
        .option('json', { type: 'boolean', default: false, describe: 'print sweep.json on stdout and nothing else' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress bar on a terminal (--no-progress to hide)' })
        .option('charts', { type: 'boolean', default: true, describe: 'draw charts/*.svg, charts/*.png and report.html into the folder (--no-charts to skip)' }) as unknown as Argv<SweepArgs>,
    (args) => executeSweep(args),
  );
}

function parseReplicates(text: string): number {
  const replicates = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!(replicates >= 1 && replicates <= 1000)) throw new UserError(`--replicates: expected a whole number from 1 to 1000, found "${text}"`);
  return replicates;
}

function parseTolerance(text: string): number {
  const match = /^\s*([\d.]+)\s*%\s*$/.exec(text);
  const value = match ? Number(match[1]) / 100 : Number(text);
  if (!(value > 0 && value < 10)) throw new UserError(`--tolerance: expected a relative width such as 5% or 0.05, found "${text}"`);
  return value;
}

function parseParams(texts: readonly string[]): SweepParam[] {
  const params = texts.map((text) => parseSweepParam(text));
  const seen = new Set<string>();
  for (const param of params) {
    const key = param.segments.join('.');
    if (key === 'seed') throw new UserError('--param seed: seeds are what --replicates varies (seed, seed+1, …); give --seed for the first one');
    if (seen.has(key)) throw new UserError(`--param ${param.path} is given twice; list all its values in one --param`);
    seen.add(key);
  }
  return params;
}

interface TargetPlan {
  target: Target;
  direction: SeekDirection;
  /** The param the search bisects (--minimize or --maximize). */
  searched: SweepParam;
  scale: ValueScale;
  low: number;
  high: number;
  /** The other params: a search per combination of their values. */
  others: SweepParam[];
}

function targetPlan(args: SweepArgs, params: readonly SweepParam[]): TargetPlan | undefined {
  if (args.target === undefined && args.minimize === undefined && args.maximize === undefined) return undefined;
  if (args.minimize !== undefined && args.maximize !== undefined) {
    throw new UserError('--minimize and --maximize: give one of them; a search looks for the smallest value meeting the target or for the largest, not both');
  }
  const searchedPath = args.minimize ?? args.maximize;
  const direction: SeekDirection = args.maximize !== undefined ? 'maximize' : 'minimize';
  if (args.target === undefined || searchedPath === undefined) {
    throw new UserError("--target and --minimize (or --maximize) go together: --target 'hitRatio.cdn>=0.95' --minimize edge.capacity, or --target 'capacity.pops.maxUplinkShare1s<=0.8' --maximize traffic.rate");
  }
  if (args.shard !== undefined) throw new UserError('--shard: a --target search runs step by step on one machine; shard a plain grid instead');
  const target = parseTarget(args.target);
  if (target.figure.startsWith('capacity.busiest')) {
    throw new UserError(`--target: capacity.busiest lists whichever PoPs were busiest in each run, so its rows are not one figure across runs; target capacity.pops.maxUplinkShare1s (the busiest PoP's share, docs/capacity.md) instead of "${target.figure}"`);
  }
  if (!SWEEP_FIGURE_ROOTS.some((root) => target.figure === root || target.figure.startsWith(`${root}.`))) {
    throw new UserError(`--target: expected a figure of summary.json under ${SWEEP_FIGURE_ROOTS.join(', ')} (such as hitRatio.cdn or latencyMs.all.p95), found "${target.figure}"`);
  }
  const searched = params.find((param) => param.path === searchedPath);
  if (searched === undefined) throw new UserError(`--${direction} ${searchedPath}: expected one of the --param paths (${params.map((p) => p.path).join(', ')}); give its range as --param ${searchedPath}=LOW,HIGH`);
  if (searched.values.length < 2) throw new UserError(`--${direction} ${searched.path}: expected at least two values to search between, found ${searched.values.length}`);
  const scale = valueScale(searched.path, searched.values, direction);
  const numbers = searched.values.map((value) => scale.parse(value));
  // The ends keep the user's spelling (1GB, not 1000000000); midpoints are written in base units.
  const written: ValueScale = { ...scale, format: (value) => searched.values[numbers.indexOf(value)] ?? scale.format(value) };
  return { target, direction, searched, scale: written, low: Math.min(...numbers), high: Math.max(...numbers), others: params.filter((param) => param !== searched) };
}

/** Every scenario a sweep will run, parsed now: a bad path or value stops it before any run, with the schema's message. */
function checkEveryPoint(file: string, data: Record<string, unknown>, params: readonly SweepParam[], points: readonly ParamAssignment[][], overrides: { requests?: number; durationMs?: number }): Scenario {
  let first: Scenario | undefined;
  for (const point of points) {
    const scenario = scenarioWithParams(file, data, params, point);
    checkRunLength(scenario, overrides);
    first ??= scenario;
  }
  if (first === undefined) throw new UserError('--param: the grid has no points');
  return first;
}

async function executeSweep(args: SweepArgs): Promise<void> {
  const overrides = checkedOverrides(args);
  const workers = parseWorkers(args.workers);
  const replicates = parseReplicates(args.replicates);
  const tolerance = parseTolerance(args.tolerance);
  const shard: Shard | undefined = args.shard === undefined ? undefined : parseShard(args.shard);
  const base = loadScenarioFile(args.scenario);
  const data = readScenarioData(args.scenario);
  const params = parseParams(args.param);
  const plan = targetPlan(args, params);
  const grid = gridPoints(params);
  const first = checkEveryPoint(args.scenario, data, params, plan ? gridPoints([...plan.others, { ...plan.searched, values: [plan.scale.format(plan.low), plan.scale.format(plan.high)] }]) : grid, overrides);
  if (first.content.recorded) await loadScenarioRecording(first.content.recorded, args.scenario);
  const seed = overrides.seed ?? base.seed;
  const startedAt = new Date();
  const { runId, folder } = args.out ? { runId: basename(resolve(args.out)), folder: args.out } : newRunFolder('results', base.name, seed, startedAt, 'sweep-');
  checkRunFolder(folder, '--out', 'sweep.json');

  const jobOf = (point: readonly ParamAssignment[], replicate: number): ScenarioJob => ({
    scenarioFile: args.scenario,
    params,
    assignments: point,
    seed: replicateSeed(seed, replicate),
    ...(overrides.requests === undefined ? {} : { requests: overrides.requests }),
    ...(overrides.durationMs === undefined ? {} : { durationMs: overrides.durationMs }),
  });
  const progress = createJobProgressReporter(args.progress, 'runs');
  // One pool for every round of a --target search: each worker loads the simulator once.
  const pool = new JobPool(Math.min(workers, (plan ? 2 : shardPointIndexes(grid.length, shard).length) * replicates));
  // Each run's conservation checks (docs/conservation.md): sweep.json keeps the figures, not the runs, so they are gathered here.
  const runChecks: { label: string; checks: Summary['checks'] }[] = [];
  const runPoints = async (points: readonly ParamAssignment[][], onProgress: (p: PoolProgress) => void): Promise<SweepPoint[]> => {
    const jobs = points.flatMap((point) => Array.from({ length: replicates }, (_, r) => jobOf(point, r)));
    const costs = points.flatMap((point) => Array<number>(replicates).fill(expectedRequests(scenarioWithParams(args.scenario, data, params, point), overrides)));
    const summaries = await pool.run(jobs, { onProgress, costs });
    summaries.forEach((summary, j) => runChecks.push({ label: `${pointLabel(points[Math.floor(j / replicates)])} seed ${jobs[j].seed}`, checks: summary.checks }));
    return points.map((point, i) => aggregatePoint(point, summaries.slice(i * replicates, (i + 1) * replicates)));
  };

  const wallStart = performance.now();
  let document: SweepDocument;
  try {
    const header = { schemaVersion: 1 as const, scenario: base.name, seed, params: params.map((param) => ({ path: param.path, values: [...param.values] })), replicates };
    if (plan) {
      const { results, points } = await searchTargets(plan, (points) => runPoints(points, (p) => progress.update(p)), tolerance);
      document = { ...header, target: { figure: plan.target.figure, comparison: plan.target.comparison, value: plan.target.value, [plan.direction]: plan.searched.path, results }, points };
    } else {
      const indexes = shardPointIndexes(grid.length, shard);
      const points = await runPoints(indexes.map((i) => grid[i]), (p) => progress.update(p));
      document = { ...header, ...(shard ? { shard } : {}), points };
    }
  } finally {
    progress.stop();
    await pool.close();
  }
  const wallSeconds = (performance.now() - wallStart) / 1000;
  const json = sweepJson(document);
  claimRunFolder(folder, '--out', 'sweep.json');
  writeFileAtomic(join(folder, 'sweep.json'), json);
  writeFileAtomic(join(folder, 'sweep.csv'), sweepCsv(document));
  writeFileAtomic(join(folder, 'run.json'), `${JSON.stringify({ ...runInfo(runId, args, base.name, seed, startedAt, wallSeconds, workers), replicates, ...(shard ? { shard } : {}) }, null, 2)}\n`);
  const written = `written: ${relative(process.cwd(), join(folder, 'sweep.json')) || folder}, sweep.csv, run.json (${wallSeconds.toFixed(3)} s wall, ${workers} worker${workers === 1 ? '' : 's'})`;
  await printResult({ json: args.json, jsonText: json, text: sweepText(document, terminalColumns()), written, chartsFolder: args.charts ? folder : undefined });
  const broken = conservationFailure(runChecks);
  if (broken) throw broken;
}

const pointLabel = (point: readonly ParamAssignment[]): string => point.map(([path, value]) => `${path}=${value}`).join(' ') || 'point';

/** One bisection per combination of the other params' values; every value tried is a point of the result. */
async function searchTargets(
  plan: TargetPlan,
  runPoints: (points: readonly ParamAssignment[][]) => Promise<SweepPoint[]>,
  tolerance: number,
): Promise<{ results: TargetResult[]; points: SweepPoint[] }> {
  const results: TargetResult[] = [];
  const points: SweepPoint[] = [];
  for (const fixed of gridPoints(plan.others)) {
    const tried: SweepPoint[] = [];
    const evaluate = async (values: number[]) => {
      const made = await runPoints(values.map((value) => [...fixed, [plan.searched.path, plan.scale.format(value)] as ParamAssignment]));
      tried.push(...made);
      return made.map((point) => {
        const figure = point.figures[plan.target.figure];
        if (figure === undefined) throw new UserError(`--target: the runs have no figure ${plan.target.figure} (figures: ${Object.keys(point.figures).join(', ')})`);
        return figure;
      });
    };
    const options = { tolerance, maxProbes: MAX_PROBES, round: plan.scale.round, format: plan.scale.format };
    const found = (probe: Probe | undefined) =>
      probe ? { value: plan.scale.format(probe.value), figure: probe.figure, meetsWithConfidence: meetsWithConfidence(plan.target, probe.figure) } : {};
    if (plan.direction === 'minimize') {
      const seek = await seekMinimum(plan.low, plan.high, plan.target, evaluate, options);
      results.push({ values: Object.fromEntries(fixed), ...found(seek.found), ...(seek.below ? { below: plan.scale.format(seek.below.value), belowFigure: seek.below.figure } : {}) });
    } else {
      const seek = await seekMaximum(plan.low, plan.high, plan.target, evaluate, options);
      results.push({ values: Object.fromEntries(fixed), ...found(seek.found), ...(seek.above ? { above: plan.scale.format(seek.above.value), aboveFigure: seek.above.figure } : {}) });
    }
    tried.sort((a, b) => plan.scale.parse(a.values[plan.searched.path]) - plan.scale.parse(b.values[plan.searched.path]));
    points.push(...tried);
  }
  return { results, points };
}
