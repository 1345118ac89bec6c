import { runScenario } from '../src/experiment/runScenario.js';
import { allFeaturesScenario } from './featureScenario.js';

/**
 * One measurement of `run.memory`, in a process of its own so that peak RSS is this run's
 * alone: `node runMemoryChild.js <requests>`. The all-features scenario with small caches
 * (64 MB per PoP, 256 MB per regional site), which fill within the warm-up. Prints one JSON line.
 */
const requests = Number(process.argv[2]);
if (!(requests > 0)) {
  process.stderr.write('usage: node runMemoryChild.js <requests>\n');
  process.exit(2);
}
const run = runScenario(allFeaturesScenario(requests, { edge: '64MB', regional: '256MB' }));
const edgeBytes = run.edges.reduce((sum, edge) => sum + edge.storedBytes, 0);
process.stdout.write(
  `${JSON.stringify({
    requests: run.totalRequests,
    peakRssMiB: (process.resourceUsage().maxRSS * 1024) / (1024 * 1024),
    cdnHitRatio: run.metrics.hitRatios(run.layers.nodeNames, run.layers.nodeNames).requests.cdn,
    edgeStoredGB: edgeBytes / 1e9,
  })}\n`,
);
