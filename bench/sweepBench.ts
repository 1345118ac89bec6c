import { join } from 'node:path';
import { runJobs } from '../src/cli/jobPool.js';
import { expectedRequests } from '../src/experiment/jobCost.js';
import { jobScenario, type ScenarioJob } from '../src/experiment/scenarioJob.js';
import { parseSweepParam } from '../src/experiment/scenarioParams.js';
import { gridPoints } from '../src/experiment/sweepGrid.js';
import type { Summary } from '../src/report/summary.js';
import { report } from './harness.js';
import { cpuCounters, loadAverage1, otherCpuSeconds } from './machineLoad.js';

/**
 * `cdnsim sweep` on worker threads (issue 14: a sweep of 8 points on 2 workers at least 1.7×
 * faster than sequential on a 2-core machine): the same 8 runs of scenarios/ttl-strategies.yaml
 * on one worker thread, then on two, in one process, as `cdnsim sweep --workers 1` and
 * `--workers 2` run them (worker start-up included); the ratio of wall times is the speed-up.
 * Both give the same summaries. Two sizes of point: `sweep.workers2` at 800 requests a second
 * (720,000 requests, about 1.5 s each) and `sweep.workers2.large` at 3,200 (2.9 M, about 6 s):
 * each worker's fixed start-up (loading the simulator, warming V8's compiler: about a point's
 * worth of CPU at the small size) weighs on the first and hardly on the second.
 *
 * A speed-up measured while other work uses the cores means nothing, so each round prints
 * the load average and the CPU seconds the rest of the machine used meanwhile
 * (`otherCpuSeconds`, from /proc); the rounds alternate the two modes and the summary line
 * takes each mode's fastest. `fairCeiling` is the speed-up two cores could give at most:
 * the sequential wall time over half the CPU seconds the parallel mode needs (every thread,
 * V8's compiler and garbage collector threads included, which a single worker runs on the
 * otherwise idle second core for free).
 */
const ROUNDS = 2;

interface Timed {
  seconds: number;
  cpuSeconds: number;
  otherCpuSeconds: number;
  load1: number;
  summaries: Summary[];
}

const rounded = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function runSweepBenchmarks(wanted: (name: string) => boolean): Promise<void> {
  if (wanted('sweep.workers2')) await sweepSpeedUp('sweep.workers2', '800/s');
  if (wanted('sweep.workers2.large')) await sweepSpeedUp('sweep.workers2.large', '3200/s');
}

async function sweepSpeedUp(name: string, rate: string): Promise<void> {
  const scenarioFile = join(import.meta.dirname, '../../scenarios/ttl-strategies.yaml');
  const params = [parseSweepParam('edge.capacity=25MB,50MB,100MB,200MB,400MB,800MB,1600MB,3200MB'), parseSweepParam(`traffic.rate=${rate}`)];
  const jobs: ScenarioJob[] = gridPoints(params).map((assignments) => ({ scenarioFile, params, assignments }));
  const costs = jobs.map((job) => expectedRequests(jobScenario(job)));
  const timed = async (workers: number): Promise<Timed> => {
    const load1 = loadAverage1();
    const counters = cpuCounters();
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const summaries = await runJobs(jobs, workers, { costs });
    const used = process.cpuUsage(cpu);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { seconds, cpuSeconds: (used.user + used.system) / 1e6, otherCpuSeconds: otherCpuSeconds(counters, cpuCounters()), load1, summaries };
  };
  const sequentials: Timed[] = [];
  const parallels: Timed[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const sequential = await timed(1);
    const parallel = await timed(2);
    sequentials.push(sequential);
    parallels.push(parallel);
    report({
      name: `${name}.round`,
      round,
      sequentialSeconds: rounded(sequential.seconds),
      parallelSeconds: rounded(parallel.seconds),
      speedUp: rounded(sequential.seconds / parallel.seconds, 2),
      sequentialCpuSeconds: rounded(sequential.cpuSeconds),
      parallelCpuSeconds: rounded(parallel.cpuSeconds),
      sequentialLoad1: sequential.load1,
      parallelLoad1: parallel.load1,
      sequentialOtherCpuSeconds: rounded(sequential.otherCpuSeconds, 2),
      parallelOtherCpuSeconds: rounded(parallel.otherCpuSeconds, 2),
    });
  }
  const fastest = (runs: Timed[]) => runs.reduce((best, run) => (run.seconds < best.seconds ? run : best));
  const sequential = fastest(sequentials);
  const parallel = fastest(parallels);
  const reference = JSON.stringify(sequentials[0].summaries);
  report({
    name,
    points: jobs.length,
    requestsPerPoint: sequential.summaries[0].requests + sequential.summaries[0].warmupRequests,
    sequentialSeconds: rounded(sequential.seconds),
    parallelSeconds: rounded(parallel.seconds),
    speedUp: rounded(sequential.seconds / parallel.seconds, 2),
    // CPU seconds of the whole process (every thread) in each mode.
    sequentialCpuSeconds: rounded(sequential.cpuSeconds),
    parallelCpuSeconds: rounded(parallel.cpuSeconds),
    fairCeiling: rounded(sequential.seconds / (parallel.cpuSeconds / 2), 2),
    load1: Math.max(sequential.load1, parallel.load1),
    otherCpuSeconds: rounded(sequential.otherCpuSeconds + parallel.otherCpuSeconds, 2),
    identical: [...sequentials, ...parallels].every((run) => JSON.stringify(run.summaries) === reference) ? 'yes' : 'no',
  });
}
