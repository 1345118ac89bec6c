import { basename, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { loadScenarioRecording } from '../../experiment/recordedCaching.js';
import type { ScenarioJob } from '../../experiment/scenarioJob.js';
import { checkStrategiesApply, selectStrategies } from '../../experiment/strategies.js';
import { compareCsv, compareDocument, compareJson, compareText } from '../../report/compareReport.js';
import { newRunFolder } from '../../report/runFolder.js';
import { writeFileAtomic } from '../../report/writeAtomic.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { UserError } from '../../userError.js';
import { parseWorkers, runJobs } from '../jobPool.js';
import { createJobProgressReporter } from '../jobProgress.js';
import { checkRunFolder, claimRunFolder } from '../outputPath.js';
import { conservationFailure } from '../conservationFailure.js';
import { packageInfo } from '../packageInfo.js';
import { checkedOverrides, checkRunLength, printResult, RUN_LENGTH_OPTIONS } from './run.js';
import { terminalColumns } from '../terminalColumns.js';

interface CompareArgs {
  scenario: string;
  strategies?: string;
  seed?: string;
  requests?: string;
  duration?: string;
  workers?: string;
  out?: string;
  json: boolean;
  progress: boolean;
  charts: boolean;
}

export function compareCommand(yargs: Argv): Argv {
  return yargs.command<CompareArgs>(
    COMMAND_LINES.compare.command,
    COMMAND_LINES.compare.describe,
    (command) =>
      command
        .positional('scenario', { type: 'string', describe: 'scenario file (YAML or JSON)', demandOption: true })
        .option('strategies', {
          type: 'string',
          describe:
            "comma-separated strategies: presets (respect-headers, framework-defaults, guidance, fixed:<duration>, swr, no-swr, purge-on-deploy, versioned-assets, cdn-off, adaptive) or the scenario's own (default: the scenario's `strategies`, else respect-headers,guidance,fixed:1h,swr)",
        })
        .options(RUN_LENGTH_OPTIONS)
        .option('workers', { type: 'string', describe: 'worker threads running strategies side by side (default: one per core)' })
        .option('out', { type: 'string', describe: 'folder to write (default results/<scenario>/compare-<run-id>/)' })
        .option('json', { type: 'boolean', default: false, describe: 'print compare.json on stdout and nothing else' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress bar on a terminal (--no-progress to hide)' })
        .option('charts', { type: 'boolean', default: true, describe: 'draw charts/*.svg, charts/*.png and report.html into the folder (--no-charts to skip)' }) as unknown as Argv<CompareArgs>,
    (args) => executeCompare(args),
  );
}

function strategyNames(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const names = text.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw new UserError(`--strategies: expected comma-separated strategy names such as respect-headers,fixed:1h, found "${text}"`);
  return names;
}

async function executeCompare(args: CompareArgs): Promise<void> {
  const overrides = checkedOverrides(args);
  const workers = parseWorkers(args.workers);
  const scenario = loadScenarioFile(args.scenario);
  checkRunLength(scenario, overrides);
  const strategies = selectStrategies(scenario, strategyNames(args.strategies));
  checkStrategiesApply(scenario, strategies, args.scenario);
  // Each strategy is applied once here, so a strategy that cannot apply fails before any run.
  for (const strategy of strategies) strategy.apply(scenario);
  if (scenario.content.recorded) await loadScenarioRecording(scenario.content.recorded, args.scenario);
  const seed = overrides.seed ?? scenario.seed;
  const startedAt = new Date();
  const { runId, folder } = args.out ? { runId: basename(resolve(args.out)), folder: args.out } : newRunFolder('results', scenario.name, seed, startedAt, 'compare-');
  checkRunFolder(folder, '--out', 'compare.json');

  const jobs: ScenarioJob[] = strategies.map((strategy) => ({
    scenarioFile: args.scenario,
    params: [],
    assignments: [],
    strategy: strategy.name,
    seed,
    ...(overrides.requests === undefined ? {} : { requests: overrides.requests }),
    ...(overrides.durationMs === undefined ? {} : { durationMs: overrides.durationMs }),
  }));
  const wallStart = performance.now();
  const progress = createJobProgressReporter(args.progress, 'strategies');
  let summaries;
  try {
    summaries = await runJobs(jobs, workers, { onProgress: (p) => progress.update(p) });
  } finally {
    progress.stop();
  }
  const wallSeconds = (performance.now() - wallStart) / 1000;
  const document = compareDocument(
    scenario.name,
    seed,
    strategies.map((strategy, i) => ({ name: strategy.name, description: strategy.description, summary: summaries[i] })),
  );
  const json = compareJson(document);
  claimRunFolder(folder, '--out', 'compare.json');
  writeFileAtomic(join(folder, 'compare.json'), json);
  writeFileAtomic(join(folder, 'compare.csv'), compareCsv(document));
  writeFileAtomic(join(folder, 'run.json'), `${JSON.stringify(runInfo(runId, args, scenario.name, seed, startedAt, wallSeconds, workers), null, 2)}\n`);
  const written = `written: ${relative(process.cwd(), join(folder, 'compare.json')) || folder}, compare.csv, run.json (${wallSeconds.toFixed(3)} s wall, ${Math.min(workers, jobs.length)} workers)`;
  await printResult({ json: args.json, jsonText: json, text: compareText(document, terminalColumns()), written, chartsFolder: args.charts ? folder : undefined });
  const broken = conservationFailure(strategies.map((strategy, i) => ({ label: strategy.name, checks: summaries[i].checks })));
  if (broken) throw broken;
}

/** run.json of a compare or sweep folder: what ran, how long it took, with which versions (not deterministic, so kept apart from the results). */
export function runInfo(runId: string, args: { scenario: string }, scenario: string, seed: number, startedAt: Date, wallSeconds: number, workers: number): Record<string, unknown> {
  const info = packageInfo();
  return {
    runId,
    scenario,
    scenarioFile: args.scenario,
    seed,
    startedAt: startedAt.toISOString(),
    wallSeconds: Number(wallSeconds.toFixed(3)),
    workers,
    peakMemoryBytes: process.resourceUsage().maxRSS * 1024,
    versions: { cdnsim: info.version, node: process.versions.node, v8: process.versions.v8, platform: `${process.platform}-${process.arch}` },
    commandLine: ['cdnsim', ...process.argv.slice(2)],
  };
}
