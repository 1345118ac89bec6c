import { basename, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import type { RunProgress } from '../../experiment/runScenario.js';
import { loadScenarioRecording } from '../../experiment/recordedCaching.js';
import { checkStrategiesApply, selectStrategies } from '../../experiment/strategies.js';
import type { Scenario } from '../../scenario/schema.js';
import { newRunFolder } from '../../report/runFolder.js';
import { writeFileAtomic } from '../../report/writeAtomic.js';
import { loadScenarioWithSets, parseScenarioSets } from '../../experiment/scenarioParams.js';
import { workBoundProblem } from '../../scenario/workBounds.js';
import { runTimeEstimate, runTimeEstimateLine } from '../../experiment/jobCost.js';
import { parseWarmupFlag, warmupCoversRunProblem, withWarmup, type Warmup } from '../../scenario/warmupSchema.js';
import { runLength } from '../../experiment/runLength.js';
import { afterRunEndWarnings, expectedAfterRunEndWarnings } from '../../experiment/afterRunEnd.js';
import { parseCount, parseDuration } from '../../units.js';
import { UserError } from '../../userError.js';
import { runSimulationWorker } from '../simulationWorker.js';
import { checkRunFolder, claimRunFolder } from '../outputPath.js';
import { SET_OPTION } from '../flags.js';
import { conservationFailure } from '../conservationFailure.js';
import { CheckFailedError } from '../checkFailed.js';
import { packageInfo } from '../packageInfo.js';
import { createProgressReporter } from '../progressBar.js';
import { terminalColumns } from '../terminalColumns.js';
import { wrapText } from '../../report/consoleTable.js';
import { drawCharts } from '../drawCharts.js';
import type { RunWorkerInput, RunWorkerMessage } from '../runWorker.js';

interface RunArgs {
  scenario: string;
  seed?: string;
  requests?: string;
  duration?: string;
  warmup?: string;
  strategy?: string;
  set?: string[];
  out?: string;
  json: boolean;
  progress: boolean;
  check: boolean;
  charts: boolean;
  curves: boolean;
  stated: boolean;
}

/** --seed, --requests and --duration, as run, compare and sweep take them (checkedOverrides reads them). */
export const RUN_LENGTH_OPTIONS = {
  seed: { type: 'string', describe: "master seed, a whole number (replaces the scenario's seed)" },
  requests: { type: 'string', describe: 'stop after this many requests, warm-up included, e.g. 500000 or 2M (replaces run.requests and run.duration)' },
  duration: { type: 'string', describe: 'stop at this simulated time, e.g. 10m or 3600 (seconds); replaces run.duration and run.requests' },
} as const;

export function runCommand(yargs: Argv): Argv {
  return yargs.command<RunArgs>(
    COMMAND_LINES.run.command,
    COMMAND_LINES.run.describe,
    (command) =>
      command
        .positional('scenario', { type: 'string', describe: 'scenario file (YAML or JSON)', demandOption: true })
        .options(RUN_LENGTH_OPTIONS)
        .option('warmup', { type: 'string', describe: 'replaces run.warmup: steady (cache-only, until the CDN hit ratio settles), 25%, 500000, 60s, or 0 for none (docs/warmup.md)' })
        .option('strategy', { type: 'string', describe: "a TTL strategy applied to the scenario: a preset (respect-headers, guidance, fixed:1h, adaptive, …) or one of the scenario's `strategies` (docs/ttl-strategies.md)" })
        .option('set', { ...SET_OPTION, describe: `${SET_OPTION.describe}; scenario.json records the result` })
        .option('out', { type: 'string', describe: 'run folder to write (default results/<scenario>/<run-id>/)' })
        .option('json', { type: 'boolean', default: false, describe: 'print the summary JSON on stdout and nothing else' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress bar on a terminal (--no-progress to hide)' })
        .option('charts', { type: 'boolean', default: true, describe: 'draw charts/*.svg, charts/*.png and report.html into the run folder (--no-charts to skip)' })
        .option('curves', {
          type: 'boolean',
          default: false,
          describe: 'sets run.curves: write curves.csv, every LRU edge and regional cache\'s hit ratio at every capacity from this one run (docs/curves.md)',
        })
        .option('stated', {
          type: 'boolean',
          default: false,
          describe: 'print the whole stated-figures table (as a scenario with modelsService: true does); otherwise one line of verdicts, stated.csv (docs/stated-figures.md)',
        })
        .option('check', {
          type: 'boolean',
          default: false,
          describe: "exit 3 when a stated figure (or the scenario's expect for it) is outside, listing those rows on stderr; the results are written either way",
        }) as unknown as Argv<RunArgs>,
    (args) => executeRun(args),
  );
}

export function checkedOverrides(args: Pick<RunArgs, 'seed' | 'requests' | 'duration'>): { seed?: number; requests?: number; durationMs?: number } {
  const overrides: { seed?: number; requests?: number; durationMs?: number } = {};
  if (args.seed !== undefined) {
    const seed = /^\d+$/.test(args.seed.trim()) ? Number(args.seed) : NaN;
    if (!Number.isSafeInteger(seed)) throw new UserError(`--seed: expected a whole number ≥ 0, found "${args.seed}"`);
    overrides.seed = seed;
  }
  if (args.requests !== undefined) {
    const parsed = parseCount(args.requests);
    if (!parsed.ok || parsed.value === 0) throw new UserError(`--requests: expected ${parsed.ok ? 'at least 1 request' : parsed.expected}, found "${args.requests}"`);
    overrides.requests = parsed.value;
  }
  if (args.duration !== undefined) {
    const parsed = parseDuration(args.duration, { bareUnit: 's' });
    if (!parsed.ok || parsed.value <= 0) throw new UserError(`--duration: expected ${parsed.ok ? 'a duration above 0' : parsed.expected}, found "${args.duration}"`);
    overrides.durationMs = parsed.value;
  }
  return overrides;
}

/** --requests and --duration change the run's length: the bounds on generated work apply to the run as asked for. */
export function checkRunLength(scenario: Scenario, overrides: { requests?: number; durationMs?: number }): void {
  const flags = [overrides.requests === undefined ? '' : '--requests', overrides.durationMs === undefined ? '' : '--duration'].filter(Boolean).join(' and ');
  // The file was checked as written; a length from the command line, or --warmup (the only other way here), may leave nothing to measure.
  const { requestLimit, horizonMs } = runLength(scenario, overrides);
  const coversRun = warmupCoversRunProblem({ requests: Number.isFinite(requestLimit) ? requestLimit : undefined, durationMs: Number.isFinite(horizonMs) ? horizonMs : undefined, warmup: scenario.run.warmup });
  if (coversRun !== null) throw new UserError(`${flags || '--warmup'} with ${args0(scenario)}: \`run.warmup\`: ${coversRun}`);
  if (overrides.requests === undefined && overrides.durationMs === undefined) return;
  const run = { ...scenario.run, requests: overrides.requests, durationMs: overrides.durationMs };
  const problem = workBoundProblem({ ...scenario, run });
  if (problem === null) return;
  throw new UserError(`${flags} with ${args0(scenario)}: \`${problem.keyPath.join('.')}\`: ${problem.message}`);
}

function warmupOverride(text: string | undefined): Warmup | undefined {
  if (text === undefined) return undefined;
  const parsed = parseWarmupFlag(text);
  if (!parsed.ok) throw new UserError(parsed.message);
  return parsed.warmup;
}

const args0 = (scenario: Scenario): string => `scenario "${scenario.name}"`;

async function executeRun(args: RunArgs): Promise<void> {
  const overrides = checkedOverrides(args);
  const warmup = warmupOverride(args.warmup);
  const sets = parseScenarioSets(args.set);
  const scenario = withWarmup(loadScenarioWithSets(args.scenario, sets), warmup);
  // An unknown strategy, or one that cannot apply, stops here with exit 2 before any run.
  if (args.strategy !== undefined) checkStrategiesApply(scenario, selectStrategies(scenario, [args.strategy], '--strategy'), args.scenario);
  checkRunLength(scenario, overrides);
  const estimate = runTimeEstimateLine(runTimeEstimate(scenario, overrides));
  if (estimate !== null && !args.json) process.stderr.write(`${wrapText(estimate, terminalColumns())}\n`);
  const { requestLimit, horizonMs } = runLength(scenario, overrides);
  for (const line of expectedAfterRunEndWarnings(scenario, requestLimit, horizonMs)) process.stderr.write(`${wrapText(`warning: ${line}`, terminalColumns())}
`);
  // Read before the run starts: a missing or malformed recording is reported at once (the
  // worker reads it again for the run; reading is fast next to the run).
  if (scenario.content.recorded) await loadScenarioRecording(scenario.content.recorded, args.scenario);
  const startedAt = new Date();
  const seed = overrides.seed ?? scenario.seed;
  const { runId, folder } = args.out ? { runId: basename(resolve(args.out)), folder: args.out } : newRunFolder('results', scenario.name, seed, startedAt);
  // Checked now, created only when the results are written: a run that fails or is
  // interrupted leaves no empty folder behind.
  checkRunFolder(folder);
  const wallStart = performance.now();
  const progress = createProgressReporter(args.progress);
  let done: Extract<RunWorkerMessage, { type: 'done' }>;
  try {
    done = await runInWorker(
      { scenarioFile: args.scenario, sets, overrides, columns: terminalColumns(), stated: args.stated, ...(warmup === undefined ? {} : { warmup }), ...(args.strategy === undefined ? {} : { strategy: args.strategy }), ...(args.curves ? { curves: true } : {}) },
      (p) => progress.update(p),
      folder,
    );
  } finally {
    progress.stop();
  }
  const wallSeconds = (performance.now() - wallStart) / 1000;

  const info = packageInfo();
  const runInfo = {
    runId,
    scenario: done.scenarioName,
    scenarioFile: args.scenario,
    seed: done.seed,
    startedAt: startedAt.toISOString(),
    wallSeconds: Number(wallSeconds.toFixed(3)),
    requests: done.totalRequests,
    cacheWarmupRequests: done.cacheWarmupRequests,
    // Through the flow; a cache-only warm-up's requests are cheaper and counted apart.
    requestsPerSecond: Math.round(done.totalRequests / Math.max(wallSeconds, 1e-9)),
    events: done.events,
    eventsPerSecond: Math.round(done.events / Math.max(wallSeconds, 1e-9)),
    peakMemoryBytes: process.resourceUsage().maxRSS * 1024,
    versions: { cdnsim: info.version, node: process.versions.node, v8: process.versions.v8, platform: `${process.platform}-${process.arch}` },
    commandLine: ['cdnsim', ...process.argv.slice(2)],
  };
  claimRunFolder(folder);
  writeFileAtomic(join(folder, 'summary.json'), done.summaryJson);
  writeFileAtomic(join(folder, 'scenario.json'), done.scenarioJson);
  writeFileAtomic(join(folder, 'stated.csv'), done.statedCsv);
  for (const file of done.csvFiles) writeFileAtomic(join(folder, file.name), file.text);
  writeFileAtomic(join(folder, 'run.json'), `${JSON.stringify(runInfo, null, 2)}\n`);

  if (done.measuredRequests === 0) {
    process.stderr.write(
      `${wrapText(
        `warning: no request was measured: the run ended after ${done.totalRequests.toLocaleString('en-US')} requests and ${done.simulatedSeconds} simulated seconds, ` +
          'before its warm-up was over. Shorten run.warmup or lengthen the run.',
        terminalColumns(),
      )}\n`,
    );
  }
  for (const line of afterRunEndWarnings(scenario, done.simulatedSeconds * 1000)) process.stderr.write(`warning: ${line}\n`);
  // The text report has it under its first line; with --json, stdout is the JSON alone (docs/warmup.md).
  if (args.json && done.warmupWarning !== undefined) process.stderr.write(`${wrapText(`warning: ${done.warmupWarning}`, terminalColumns())}\n`);
  for (const note of done.curvesWarnings) process.stderr.write(`${wrapText(`warning: ${note}`, terminalColumns())}\n`);
  const written = `written: ${relative(process.cwd(), join(folder, 'summary.json')) || folder}, scenario.json, stated.csv, ${done.csvFiles.map((file) => file.name).join(', ')}, run.json (${runInfo.wallSeconds} s wall${
    done.cacheWarmupRequests > 0
      ? `: ${done.cacheWarmupRequests.toLocaleString('en-US')} requests warming the caches alone, then ${done.totalRequests.toLocaleString('en-US')} through the flow`
      : `, ${runInfo.requestsPerSecond.toLocaleString('en-US')} requests/s`
  })`;
  await printResult({ json: args.json, jsonText: done.summaryJson, text: done.summaryText, written, chartsFolder: args.charts ? folder : undefined });
  // A broken identity is a simulator bug: it outranks --check's verdict on the figures.
  const broken = conservationFailure([{ label: '', checks: done.checks }]);
  if (broken) throw broken;
  if (args.check && done.outside.length > 0) {
    const rows = done.outside.length === 1 ? '1 stated figure is' : `${done.outside.length} stated figures are`;
    throw new CheckFailedError(`--check: ${rows} outside:\n${done.outside.map((line) => `  ${line}`).join('\n')}`);
  }
}

/**
 * A command's last words: with --json, the JSON alone on stdout and the files written (and the
 * charts drawn into `chartsFolder`) on stderr; otherwise the text report, then those lines.
 */
export async function printResult(result: { json: boolean; jsonText: string; text: string; written: string; chartsFolder: string | undefined }): Promise<void> {
  const charts = result.chartsFolder === undefined ? '' : `\n${await drawCharts(result.chartsFolder)}`;
  // The files written, folded to the terminal's width like the report above them (issue 26).
  const written = wrapText(`${result.written}${charts}`, terminalColumns());
  if (result.json) {
    process.stdout.write(result.jsonText);
    process.stderr.write(`${written}\n`);
  } else {
    process.stdout.write(`${result.text}\n\n${written}\n`);
  }
}

/** The simulation in a worker thread (src/cli/simulationWorker.ts: Ctrl-C removes an unfinished run folder, exit 130). */
function runInWorker(input: RunWorkerInput, onProgress: (progress: RunProgress) => void, folder: string): Promise<Extract<RunWorkerMessage, { type: 'done' }>> {
  return runSimulationWorker({ script: new URL('../runWorker.js', import.meta.url), input, folder, finishedFile: 'summary.json', noun: 'run' }, onProgress);
}
