import { parentPort, workerData } from 'node:worker_threads';
import type { NodeCurve } from '../cache/hitRatioCurves.js';
import { loadScenarioRecording } from '../experiment/recordedCaching.js';
import { runScenario, type RunProgress, type RunOverrides } from '../experiment/runScenario.js';
import { buildSummary, summaryJson } from '../report/summary.js';
import { curvesCsv } from '../report/curvesCsv.js';
import type { Scenario } from '../scenario/schema.js';
import { isUserError } from '../userError.js';
import { throttledProgress } from './simulationWorker.js';

/**
 * One run of `cdnsim plan` (docs/plan.md) in a worker thread, as `run`'s runWorker: the main
 * thread stays free to answer Ctrl-C. It runs the scenario it is given (with curves on) and
 * sends back the summary and every node's curve histogram.
 */

export interface PlanWorkerInput {
  scenario: Scenario;
  /** Where the scenario file is: a recording is named relative to it. */
  scenarioFile: string;
  overrides: RunOverrides;
}

export type PlanWorkerMessage =
  | { type: 'progress'; progress: RunProgress }
  | { type: 'done'; summaryJson: string; curves: NodeCurve[]; curvesCsv: string; curvesWarnings: string[]; totalRequests: number; cacheWarmupRequests: number }
  | { type: 'error'; userError: boolean; message: string; stack?: string };

async function work(input: PlanWorkerInput, post: (message: PlanWorkerMessage) => void): Promise<void> {
  const scenario: Scenario = { ...input.scenario, run: { ...input.scenario.run, curves: true } };
  const recording = scenario.content.recorded ? await loadScenarioRecording(scenario.content.recorded, input.scenarioFile) : undefined;
  const result = runScenario(scenario, { ...input.overrides, recording, onProgress: throttledProgress(post) });
  const curves = result.curves?.nodes ?? [];
  post({
    type: 'done',
    summaryJson: summaryJson(buildSummary(result)),
    curves,
    curvesCsv: curves.length > 0 ? curvesCsv(curves) : '',
    curvesWarnings: result.curves?.unavailable ?? [],
    totalRequests: result.totalRequests,
    cacheWarmupRequests: result.warmup.method === 'caches' ? result.warmup.requests : 0,
  });
}

if (parentPort !== null) {
  const port = parentPort;
  const post = (message: PlanWorkerMessage) => port.postMessage(message);
  work(workerData as PlanWorkerInput, post).catch((error: unknown) => {
    post({
      type: 'error',
      userError: isUserError(error),
      message: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  });
}
