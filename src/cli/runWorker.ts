import { dirname, resolve } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { loadScenarioRecording } from '../experiment/recordedCaching.js';
import { withStrategy } from '../experiment/strategies.js';
import { runScenario, type RunProgress, type RunResult } from '../experiment/runScenario.js';
import { buildSummary, summaryJson, type Summary } from '../report/summary.js';
import { summaryText } from '../report/summaryText.js';
import { outsideLines, statedCsv } from '../report/statedTable.js';
import { curvesCsv } from '../report/curvesCsv.js';
import { runCsvFiles, type CsvFile } from '../report/runCsvFiles.js';
import { loadScenarioWithSets, type ParamAssignment } from '../experiment/scenarioParams.js';
import type { Scenario } from '../scenario/schema.js';
import { scenarioToInput } from '../scenario/serialize.js';
import { withWarmup, type Warmup } from '../scenario/warmupSchema.js';
import { isUserError } from '../userError.js';
import { throttledProgress } from './simulationWorker.js';

/**
 * `cdnsim run`'s simulation in a worker thread, so that the main thread stays free to
 * answer Ctrl-C (the simulation is synchronous: a signal handler on its own thread would
 * run only after it). The main thread writes the files; this one only computes them.
 */

export interface RunWorkerInput {
  scenarioFile: string;
  /** --set: scenario keys set for this run (applied to the file before anything else). */
  sets: readonly ParamAssignment[];
  overrides: { seed?: number; requests?: number; durationMs?: number };
  /** --warmup: replaces the scenario's run.warmup (and so its scenario.json). */
  warmup?: Warmup;
  /** --strategy: a TTL strategy applied to the scenario (its scenario.json is the result). */
  strategy?: string;
  /** --curves: sets run.curves (curves.csv, docs/curves.md). */
  curves?: boolean;
  /** The terminal's width (src/cli/terminalColumns.ts) and --stated: how the text report is laid out. */
  columns: number;
  stated: boolean;
}

export type RunWorkerMessage =
  | { type: 'progress'; progress: RunProgress }
  | {
      type: 'done';
      scenarioName: string;
      summaryJson: string;
      summaryText: string;
      /** stated.csv: the stated table, one row per line. */
      statedCsv: string;
      /** timeseries.csv, pops.csv, regions.csv, layers.csv, classes.csv. */
      csvFiles: CsvFile[];
      /** Why each row outside its stated value or expectation is outside (`--check`). */
      outside: string[];
      /** The conservation checks (docs/conservation.md), as summary.json holds them. */
      checks: Summary['checks'];
      scenarioJson: string;
      measuredRequests: number;
      simulatedSeconds: number;
      seed: number;
      totalRequests: number;
      /** Requests a cache-only warm-up applied to the caches before the run (not in totalRequests). */
      cacheWarmupRequests: number;
      /** summary.json `warmup.warning`: a warm-up until steady that stopped at its cap still rising. */
      warmupWarning?: string;
      /** run.curves: the layers without a curve, and why. */
      curvesWarnings: string[];
      events: number;
    }
  | { type: 'error'; userError: boolean; message: string; stack?: string };

/**
 * The scenario with the seed and run length the run used (the command line's, if given),
 * and a recording named by its absolute path: the run folder's scenario.json is read from
 * another folder than the scenario file was.
 */
function asRun(scenario: Scenario, result: RunResult, scenarioFile: string): Scenario {
  const { recorded } = scenario.content;
  const content = recorded === undefined ? scenario.content : { ...scenario.content, recorded: { ...recorded, file: resolve(dirname(scenarioFile), recorded.file) } };
  return { ...scenario, content, seed: result.seed, run: { ...scenario.run, requests: result.limits.requests, durationMs: result.limits.durationMs } };
}

async function work(input: RunWorkerInput, post: (message: RunWorkerMessage) => void): Promise<void> {
  const file = withWarmup(loadScenarioWithSets(input.scenarioFile, input.sets), input.warmup);
  const loaded = input.curves === true ? { ...file, run: { ...file.run, curves: true } } : file;
  const scenario = input.strategy === undefined ? loaded : withStrategy(loaded, input.strategy);
  const recording = scenario.content.recorded ? await loadScenarioRecording(scenario.content.recorded, input.scenarioFile) : undefined;
  const result = runScenario(scenario, { ...input.overrides, recording, onProgress: throttledProgress(post) });
  const summary = buildSummary(result);
  post({
    type: 'done',
    scenarioName: scenario.name,
    summaryJson: summaryJson(summary),
    // The whole stated table where the scenario models the service itself, or on --stated (issue 26).
    summaryText: summaryText(summary, { columns: input.columns, statedTable: input.stated || scenario.modelsService }),
    statedCsv: statedCsv(summary.stated),
    csvFiles: [...runCsvFiles(summary, result.timeline, result.adaptive), ...(result.curves && result.curves.nodes.length > 0 ? [{ name: 'curves.csv', text: curvesCsv(result.curves.nodes) }] : [])],
    outside: outsideLines(summary.stated),
    checks: summary.checks,
    // The scenario as it ran (defaults filled, units resolved, overrides applied), so the run
    // folder alone is enough to repeat the run.
    scenarioJson: `${JSON.stringify(scenarioToInput(asRun(scenario, result, input.scenarioFile)), null, 2)}\n`,
    measuredRequests: summary.requests,
    simulatedSeconds: summary.simulatedSeconds,
    seed: result.seed,
    totalRequests: result.totalRequests,
    cacheWarmupRequests: result.warmup.method === 'caches' ? result.warmup.requests : 0,
    ...(summary.warmup.warning === undefined ? {} : { warmupWarning: summary.warmup.warning }),
    curvesWarnings: result.curves?.unavailable ?? [],
    events: result.events,
  });
}

if (parentPort !== null) {
  const port = parentPort;
  const post = (message: RunWorkerMessage) => port.postMessage(message);
  work(workerData as RunWorkerInput, post).catch((error: unknown) => {
    post({
      type: 'error',
      userError: isUserError(error),
      message: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  });
}
