import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScenario } from '../src/experiment/runScenario.js';
import { loadScenarioFile } from '../src/scenario/load.js';
import { parseWarmupFlag, withWarmup } from '../src/scenario/warmupSchema.js';

/**
 * The project's side of `reference.baselineFlow` (bench/referenceBench.ts), in a process of its
 * own so that its CPU time and peak RSS are this run's alone: scenarios/baseline.yaml from cold
 * caches (`--warmup 0`), `node referenceChild.js <requests>`. Prints one JSON line: requests
 * per CPU-second of the flow (from the first progress report with requests to the end, as the
 * reference's `loopCpu` leaves its set-up out) and of the whole process, and peak RSS.
 */
const requests = Number(process.argv[2]);
if (!(requests > 0)) {
  process.stderr.write('usage: node referenceChild.js <requests>\n');
  process.exit(2);
}
const cpuSeconds = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
const root = fileURLToPath(new URL('../..', import.meta.url));
const cold = parseWarmupFlag('0');
if (!cold.ok) throw new Error(cold.message);
const scenario = withWarmup(loadScenarioFile(join(root, 'scenarios/baseline.yaml')), cold.warmup);
let flowStart = -1;
let flowStartRequests = 0;
const run = runScenario(scenario, {
  requests,
  onProgress: (progress) => {
    if (flowStart < 0 && progress.requests > 0) {
      flowStart = cpuSeconds();
      flowStartRequests = progress.requests;
    }
  },
});
const flowCpu = cpuSeconds() - flowStart;
const processCpu = cpuSeconds();
process.stdout.write(
  `${JSON.stringify({
    requests: run.totalRequests,
    flowRequestsPerCpuSecond: Math.round((run.totalRequests - flowStartRequests) / flowCpu),
    processRequestsPerCpuSecond: Math.round(run.totalRequests / processCpu),
    peakRssMiB: Math.round((process.resourceUsage().maxRSS * 1024) / (1024 * 1024)),
  })}\n`,
);
