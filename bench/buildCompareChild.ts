import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { allFeaturesScenarioText } from './featureScenario.js';

/**
 * One timed run for bench/buildCompare.ts, in a process of its own, with the build in
 * `<root>/dist`: `node dist/bench/buildCompareChild.js <root> <workload>`. Prints one JSON
 * line with the requests per second of the part the workload measures, per second of this
 * process's CPU time (user + system): on a machine shared with other work, wall time measures
 * the neighbours as much as the build.
 * - `allFeatures`: slice.allFeatures' scenario with 1 M requests;
 * - `baselineFlow`: scenarios/baseline.yaml (`npm start`).
 * Both count the requests through the flow from the first progress report with requests to
 * the end of the run: the setup and a cache-only warm-up before are left out.
 */
const [rootArgument, workload] = process.argv.slice(2);
if (rootArgument === undefined || (workload !== 'allFeatures' && workload !== 'baselineFlow')) {
  process.stderr.write('usage: buildCompareChild.js <root holding dist/> allFeatures|baselineFlow\n');
  process.exit(2);
}
const root = resolve(rootArgument);
/** CPU seconds this process has used so far. */
const cpuSeconds = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
const load = (await import(pathToFileURL(join(root, 'dist/src/scenario/load.js')).href)) as typeof import('../src/scenario/load.js');
const { runScenario } = (await import(pathToFileURL(join(root, 'dist/src/experiment/runScenario.js')).href)) as typeof import('../src/experiment/runScenario.js');

const scenario =
  workload === 'allFeatures' ? load.parseScenarioText(allFeaturesScenarioText(1_000_000), 'bench-features.yaml') : load.loadScenarioFile(join(root, 'scenarios/baseline.yaml'));
let flowStart = -1;
let flowStartRequests = 0;
const run = runScenario(scenario, {
  onProgress: (progress) => {
    if (flowStart < 0 && progress.requests > 0) {
      flowStart = cpuSeconds();
      flowStartRequests = progress.requests;
    }
  },
});
const seconds = cpuSeconds() - flowStart;
const requests = run.totalRequests - flowStartRequests;
process.stdout.write(`${JSON.stringify({ workload, requests, requestsPerSecond: Math.round(requests / seconds) })}\n`);
