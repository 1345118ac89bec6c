import { join } from 'node:path';
import { runScenario } from '../src/experiment/runScenario.js';
import { loadScenarioFile } from '../src/scenario/load.js';
import { report } from './harness.js';

/**
 * `slice.timeline`: what recording the time series and the per-PoP capacity costs, on the
 * run `npm start` makes (scenarios/baseline.yaml). The two variants alternate, so load
 * from other processes falls on both alike; each is timed by wall clock and by this
 * process's CPU time, and compared as a ratio.
 */
export function runTimelineBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('slice.timeline')) return;
  const scenario = loadScenarioFile(join(import.meta.dirname, '..', '..', 'scenarios', 'baseline.yaml'));
  const repeats = 3;
  const time = (timeline: boolean) => {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const run = runScenario(scenario, { timeline });
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    return { requests: run.totalRequests, wall, cpu: (used.user + used.system) / 1e6 };
  };
  runScenario(scenario, { timeline: true, requests: 200_000 }); // warm-up: JIT
  const withTimeline: { wall: number; cpu: number }[] = [];
  const without: { wall: number; cpu: number }[] = [];
  let requests = 0;
  for (let i = 0; i < repeats; i++) {
    const a = time(false);
    const b = time(true);
    requests = a.requests;
    without.push(a);
    withTimeline.push(b);
  }
  const best = (runs: { wall: number; cpu: number }[], key: 'wall' | 'cpu') => Math.min(...runs.map((run) => run[key]));
  report({
    name: 'slice.timeline.baseline',
    requests,
    withoutCpuSeconds: round(best(without, 'cpu')),
    withCpuSeconds: round(best(withTimeline, 'cpu')),
    cpuRatio: round(best(withTimeline, 'cpu') / best(without, 'cpu')),
    withoutWallSeconds: round(best(without, 'wall')),
    withWallSeconds: round(best(withTimeline, 'wall')),
    wallRatio: round(best(withTimeline, 'wall') / best(without, 'wall')),
    withoutRequestsPerSecond: Math.round(requests / best(without, 'wall')),
    withRequestsPerSecond: Math.round(requests / best(withTimeline, 'wall')),
  });
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
