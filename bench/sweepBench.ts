import { join } from 'node:path';
import { runJobs } from '../src/cli/jobPool.js';
import type { ScenarioJob } from '../src/experiment/scenarioJob.js';
import { parseSweepParam } from '../src/experiment/scenarioParams.js';
import { gridPoints } from '../src/experiment/sweepGrid.js';
import { report } from './harness.js';

/**
 * `cdnsim sweep` on worker threads (issue 14: a sweep of 8 points on 2 workers at least 1.7×
 * faster than sequential on a 2-core machine): the same 8 runs of scenarios/ttl-strategies.yaml
 * (800 requests a second, 720,000 requests each: points long enough that a worker's start-up is a small share) on one worker thread, then on two, in one
 * process; the ratio of wall times is the speed-up. Both give the same summaries. On a
 * machine shared with other work the speed-up is bounded by the CPU it gets: compare the CPU
 * seconds (every thread) with the wall seconds.
 */
export async function runSweepBenchmarks(wanted: (name: string) => boolean): Promise<void> {
  if (!wanted('sweep.workers')) return;
  const scenarioFile = join(import.meta.dirname, '../../scenarios/ttl-strategies.yaml');
  const params = [parseSweepParam('edge.capacity=25MB,50MB,100MB,200MB,400MB,800MB,1600MB,3200MB'), parseSweepParam('traffic.rate=800/s')];
  const jobs: ScenarioJob[] = gridPoints(params).map((assignments) => ({ scenarioFile, params, assignments }));
  const timed = async (workers: number) => {
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const summaries = await runJobs(jobs, workers);
    const used = process.cpuUsage(cpu);
    return { seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuSeconds: (used.user + used.system) / 1e6, summaries };
  };
  const sequential = await timed(1);
  const parallel = await timed(2);
  report({
    name: 'sweep.workers2',
    points: jobs.length,
    requestsPerPoint: sequential.summaries[0].requests + sequential.summaries[0].warmupRequests,
    sequentialSeconds: Math.round(sequential.seconds * 1000) / 1000,
    parallelSeconds: Math.round(parallel.seconds * 1000) / 1000,
    speedUp: Math.round((sequential.seconds / parallel.seconds) * 100) / 100,
    // CPU time of the whole process (every thread): equal in both modes means the workers add
    // no work of their own, so the speed-up is the share of two cores the machine gives us.
    sequentialCpuSeconds: Math.round(sequential.cpuSeconds * 1000) / 1000,
    parallelCpuSeconds: Math.round(parallel.cpuSeconds * 1000) / 1000,
    identical: JSON.stringify(parallel.summaries) === JSON.stringify(sequential.summaries) ? 'yes' : 'no',
  });
}
