import { join } from 'node:path';
import { runScenario } from '../src/experiment/runScenario.js';
import { withStrategy } from '../src/experiment/strategies.js';
import { loadScenarioFile } from '../src/scenario/load.js';
import { report } from './harness.js';

/**
 * `slice.adaptive`: what the adaptive TTL controller (spec 1.2 item 6) costs a run:
 * scenarios/adaptive-ttl.yaml as the origin sends it against the same with the `adaptive`
 * strategy, alternating so load from other processes falls on both alike; best wall and
 * CPU seconds of each, and their ratio. The controller adds a count per finished request
 * (typed arrays) and one event per window; a changed lifetime also changes what the caches
 * do, so the two runs differ in work as well as in bookkeeping.
 */
export function runAdaptiveBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('slice.adaptive')) return;
  const plain = loadScenarioFile(join(import.meta.dirname, '..', '..', 'scenarios', 'adaptive-ttl.yaml'));
  const adaptive = withStrategy(plain, 'adaptive');
  const time = (scenario: typeof plain) => {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const run = runScenario(scenario);
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    return { requests: run.totalRequests, events: run.events, wall, cpu: (used.user + used.system) / 1e6 };
  };
  runScenario(adaptive, { requests: 100_000 }); // warm-up: JIT
  const runs = { plain: [] as ReturnType<typeof time>[], adaptive: [] as ReturnType<typeof time>[] };
  for (let i = 0; i < 3; i++) {
    runs.plain.push(time(plain));
    runs.adaptive.push(time(adaptive));
  }
  const best = (list: ReturnType<typeof time>[], key: 'wall' | 'cpu') => Math.min(...list.map((run) => run[key]));
  report({
    name: 'slice.adaptive',
    requests: runs.plain[0].requests,
    plainEventsPerRequest: Number((runs.plain[0].events / runs.plain[0].requests).toFixed(3)),
    adaptiveEventsPerRequest: Number((runs.adaptive[0].events / runs.adaptive[0].requests).toFixed(3)),
    plainWallSeconds: Number(best(runs.plain, 'wall').toFixed(3)),
    adaptiveWallSeconds: Number(best(runs.adaptive, 'wall').toFixed(3)),
    plainCpuSeconds: Number(best(runs.plain, 'cpu').toFixed(3)),
    adaptiveCpuSeconds: Number(best(runs.adaptive, 'cpu').toFixed(3)),
    cpuRatio: Number((best(runs.adaptive, 'cpu') / best(runs.plain, 'cpu')).toFixed(3)),
  });
}
