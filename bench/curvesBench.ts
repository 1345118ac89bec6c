import { join } from 'node:path';
import { runScenario } from '../src/experiment/runScenario.js';
import { loadScenarioFile } from '../src/scenario/load.js';
import { report } from './harness.js';

/**
 * `slice.curves.baseline`: what run.curves costs (docs/curves.md; issue 25 item 2 asks for at
 * most twice the run without), on the run `npm start` makes (scenarios/baseline.yaml: 15 M
 * requests of cache-only warm-up, then 1 M measured, 339 PoPs and 14 regional sites). With
 * and without alternate, so load from other processes falls on both alike; compared as the
 * ratio of the best CPU and wall times.
 */
export function runCurvesBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('slice.curves')) return;
  const scenario = loadScenarioFile(join(import.meta.dirname, '..', '..', 'scenarios', 'baseline.yaml'));
  const repeats = Number(process.env.CURVES_BENCH_REPEATS ?? 2);
  const time = (curves: boolean) => {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const run = runScenario({ ...scenario, run: { ...scenario.run, curves } }, { timeline: true });
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    return { requests: run.totalRequests, wall, cpu: (used.user + used.system) / 1e6 };
  };
  const without: { wall: number; cpu: number }[] = [];
  const withCurves: { wall: number; cpu: number }[] = [];
  let requests = 0;
  for (let i = 0; i < repeats; i++) {
    const a = time(false);
    const b = time(true);
    requests = a.requests;
    without.push(a);
    withCurves.push(b);
  }
  const best = (runs: { wall: number; cpu: number }[], key: 'wall' | 'cpu') => Math.min(...runs.map((run) => run[key]));
  report({
    name: 'slice.curves.baseline',
    requests,
    withoutCpuSeconds: round(best(without, 'cpu')),
    withCpuSeconds: round(best(withCurves, 'cpu')),
    cpuRatio: round(best(withCurves, 'cpu') / best(without, 'cpu')),
    withoutWallSeconds: round(best(without, 'wall')),
    withWallSeconds: round(best(withCurves, 'wall')),
    wallRatio: round(best(withCurves, 'wall') / best(without, 'wall')),
    withinTwice: best(withCurves, 'cpu') <= 2 * best(without, 'cpu') ? 'yes' : 'no',
  });
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
