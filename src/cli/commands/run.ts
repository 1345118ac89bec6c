import { basename, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { runScenario, type RunResult } from '../../experiment/runScenario.js';
import { loadScenarioRecording } from '../../experiment/recordedCaching.js';
import type { Scenario } from '../../scenario/schema.js';
import { scenarioToInput } from '../../scenario/serialize.js';
import { buildSummary, summaryJson } from '../../report/summary.js';
import { summaryText } from '../../report/summaryText.js';
import { newRunFolder } from '../../report/runFolder.js';
import { writeFileAtomic } from '../../report/writeAtomic.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { workBoundProblem } from '../../scenario/workBounds.js';
import { parseCount, parseDuration } from '../../units.js';
import { UserError } from '../../userError.js';
import { checkRunFolder, createCheckedFolder } from '../outputPath.js';
import { packageInfo } from '../packageInfo.js';
import { createProgressReporter } from '../progressBar.js';

interface RunArgs {
  scenario: string;
  seed?: string;
  requests?: string;
  duration?: string;
  out?: string;
  json: boolean;
  progress: boolean;
}

export function runCommand(yargs: Argv): Argv {
  return yargs.command<RunArgs>(
    'run <scenario>',
    'run a scenario file and write summary.json and run.json',
    (command) =>
      command
        .positional('scenario', { type: 'string', describe: 'scenario file (YAML or JSON)', demandOption: true })
        .option('seed', { type: 'string', describe: "master seed, a whole number (replaces the scenario's seed)" })
        .option('requests', { type: 'string', describe: 'stop after this many requests, warm-up included, e.g. 500000 or 2M (replaces run.requests and run.duration)' })
        .option('duration', { type: 'string', describe: 'stop at this simulated time, e.g. 10m or 3600 (seconds); replaces run.duration and run.requests' })
        .option('out', { type: 'string', describe: 'run folder to write (default results/<scenario>/<run-id>/)' })
        .option('json', { type: 'boolean', default: false, describe: 'print the summary JSON on stdout and nothing else' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress bar on a terminal (--no-progress to hide)' }) as unknown as Argv<RunArgs>,
    (args) => executeRun(args),
  );
}

function checkedOverrides(args: RunArgs): { seed?: number; requests?: number; durationMs?: number } {
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
function checkRunLength(scenario: Scenario, overrides: { requests?: number; durationMs?: number }): void {
  if (overrides.requests === undefined && overrides.durationMs === undefined) return;
  const run = { ...scenario.run, requests: overrides.requests, durationMs: overrides.durationMs };
  const problem = workBoundProblem({ ...scenario, run });
  if (problem === null) return;
  const flags = [overrides.requests === undefined ? '' : '--requests', overrides.durationMs === undefined ? '' : '--duration'].filter(Boolean).join(' and ');
  throw new UserError(`${flags} with ${args0(scenario)}: \`${problem.keyPath.join('.')}\`: ${problem.message}`);
}

const args0 = (scenario: Scenario): string => `scenario "${scenario.name}"`;

/** The scenario with the seed and run length the run used (the command line's, if given). */
function asRun(scenario: Scenario, result: RunResult): Scenario {
  return { ...scenario, seed: result.seed, run: { ...scenario.run, requests: result.limits.requests, durationMs: result.limits.durationMs } };
}

async function executeRun(args: RunArgs): Promise<void> {
  const overrides = checkedOverrides(args);
  const scenario = loadScenarioFile(args.scenario);
  checkRunLength(scenario, overrides);
  // Read before the run folder exists: a missing or malformed recording leaves nothing behind.
  const recording = scenario.content.recorded ? await loadScenarioRecording(scenario.content.recorded, args.scenario) : undefined;
  const startedAt = new Date();
  const seed = overrides.seed ?? scenario.seed;
  const { runId, folder } = args.out ? { runId: basename(resolve(args.out)), folder: args.out } : newRunFolder('results', scenario.name, seed, startedAt);
  // Checked now, created only when the results are written: a run that fails or is
  // interrupted leaves no empty folder behind.
  checkRunFolder(folder);
  const wallStart = performance.now();
  const progress = createProgressReporter(args.progress);
  let result;
  try {
    result = runScenario(scenario, { ...overrides, recording, onProgress: (p) => progress.update(p) });
  } finally {
    progress.stop();
  }
  const wallSeconds = (performance.now() - wallStart) / 1000;

  const summary = buildSummary(result);
  const info = packageInfo();
  const runInfo = {
    runId,
    scenario: scenario.name,
    scenarioFile: args.scenario,
    seed: result.seed,
    startedAt: startedAt.toISOString(),
    wallSeconds: Number(wallSeconds.toFixed(3)),
    requests: result.totalRequests,
    requestsPerSecond: Math.round(result.totalRequests / Math.max(wallSeconds, 1e-9)),
    events: result.events,
    eventsPerSecond: Math.round(result.events / Math.max(wallSeconds, 1e-9)),
    peakMemoryBytes: process.resourceUsage().maxRSS * 1024,
    versions: { cdnsim: info.version, node: process.versions.node, v8: process.versions.v8, platform: `${process.platform}-${process.arch}` },
    commandLine: ['cdnsim', ...process.argv.slice(2)],
  };
  createCheckedFolder(folder);
  writeFileAtomic(join(folder, 'summary.json'), summaryJson(summary));
  // The scenario as it ran (defaults filled, units resolved, overrides applied), so the run
  // folder alone is enough to repeat the run.
  writeFileAtomic(join(folder, 'scenario.json'), `${JSON.stringify(scenarioToInput(asRun(scenario, result)), null, 2)}\n`);
  writeFileAtomic(join(folder, 'run.json'), `${JSON.stringify(runInfo, null, 2)}\n`);

  if (summary.requests === 0) {
    process.stderr.write(
      `warning: no request was measured: the run ended after ${result.totalRequests.toLocaleString('en-US')} requests and ${summary.simulatedSeconds} simulated seconds, ` +
        'before its warm-up was over. Shorten run.warmup or lengthen the run.\n',
    );
  }
  const written = `written: ${relative(process.cwd(), join(folder, 'summary.json')) || folder}, scenario.json, run.json (${runInfo.wallSeconds} s wall, ${runInfo.requestsPerSecond.toLocaleString('en-US')} requests/s)`;
  if (args.json) {
    process.stdout.write(summaryJson(summary));
    process.stderr.write(`${written}\n`);
  } else {
    process.stdout.write(`${summaryText(summary)}\n\n${written}\n`);
  }
}
