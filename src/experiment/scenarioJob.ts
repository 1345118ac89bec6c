import { buildSummary, type Summary } from '../report/summary.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { Scenario } from '../scenario/schema.js';
import { loadScenarioRecording } from './recordedCaching.js';
import { runScenario, type RunProgress } from './runScenario.js';
import { readScenarioData, scenarioWithParams, type ParamAssignment, type SweepParam } from './scenarioParams.js';
import { withStrategy } from './strategies.js';

/**
 * One run of a comparison or a sweep: a scenario file, the key paths set on it, a strategy
 * and a seed. A pure function of these (the simulator is deterministic), so a job gives the
 * same summary in any worker, in any order: parallel sweeps equal sequential ones.
 */
export interface ScenarioJob {
  readonly scenarioFile: string;
  readonly params: readonly SweepParam[];
  readonly assignments: readonly ParamAssignment[];
  /** A strategy name (preset or the scenario's own); absent: the scenario as written. */
  readonly strategy?: string;
  /** Replaces the scenario's seed. */
  readonly seed?: number;
  readonly requests?: number;
  readonly durationMs?: number;
}

/** The scenario a job runs: the file with its assignments, then its strategy applied. */
export function jobScenario(job: ScenarioJob): Scenario {
  const base = job.assignments.length === 0 ? loadScenarioFile(job.scenarioFile) : scenarioWithParams(job.scenarioFile, readScenarioData(job.scenarioFile), job.params, job.assignments);
  if (job.strategy === undefined) return base;
  return withStrategy(base, job.strategy);
}

export async function runScenarioJob(job: ScenarioJob, onProgress?: (progress: RunProgress) => void): Promise<Summary> {
  const scenario = jobScenario(job);
  const recording = scenario.content.recorded ? await loadScenarioRecording(scenario.content.recorded, job.scenarioFile) : undefined;
  const result = runScenario(scenario, {
    recording,
    ...(job.seed === undefined ? {} : { seed: job.seed }),
    ...(job.requests === undefined ? {} : { requests: job.requests }),
    ...(job.durationMs === undefined ? {} : { durationMs: job.durationMs }),
    ...(onProgress === undefined ? {} : { onProgress }),
  });
  return buildSummary(result);
}
