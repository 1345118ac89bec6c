import { join } from 'node:path';
import { runScenario } from '../src/experiment/runScenario.js';
import { loadScenarioFile } from '../src/scenario/load.js';
import { alternate, report, timeRun } from './harness.js';

/**
 * `slice.curves.baseline`: what run.curves costs (docs/curves.md; issue 25 item 2 asks for at
 * most twice the run without), on the run `npm start` makes (scenarios/baseline.yaml: a
 * stationary fill and a cache-only warm-up until steady, then 1 M measured, 339 PoPs and 14
 * regional sites). With
 * and without alternate, so load from other processes falls on both alike; compared as the
 * ratio of the best CPU and wall times.
 */
export function runCurvesBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('slice.curves')) return;
  const scenario = loadScenarioFile(join(import.meta.dirname, '..', '..', 'scenarios', 'baseline.yaml'));
  const repeats = Number(process.env.CURVES_BENCH_REPEATS ?? 2);
  const { requests, without, with: withCurves } = alternate(repeats, (curves) => timeRun(() => runScenario({ ...scenario, run: { ...scenario.run, curves } }, { timeline: true }).totalRequests));
  report({
    name: 'slice.curves.baseline',
    requests,
    withoutCpuSeconds: round(without.cpu),
    withCpuSeconds: round(withCurves.cpu),
    cpuRatio: round(withCurves.cpu / without.cpu),
    withoutWallSeconds: round(without.wall),
    withWallSeconds: round(withCurves.wall),
    wallRatio: round(withCurves.wall / without.wall),
    withinTwice: withCurves.cpu <= 2 * without.cpu ? 'yes' : 'no',
  });
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
