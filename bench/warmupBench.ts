import { runScenario } from '../src/experiment/runScenario.js';
import { parseScenarioText } from '../src/scenario/load.js';
import { measure, report } from './harness.js';

/**
 * The cache-only warm-up (src/cdn/cacheWarmer.ts) against the full flow on the same traffic:
 * the baseline's network (339 PoPs, 14 regional sites, 100,000 objects, 4 GB edges), 2 M
 * requests each way. `warmup.cachesOverFlow` is how many warmed requests cost one through
 * the flow.
 */
export function runWarmupBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('warmup.')) return;
  const requests = 2_000_000;
  const network = 'content: { objects: 100000 }\nedge: { capacity: 4GB }\nregional: { capacity: 20GB }\n';
  const flow = parseScenarioText(`${network}run: { requests: ${requests} }\n`, 'bench-warmup-flow.yaml');
  // One measured request after a cache-only warm-up of `requests`.
  const caches = parseScenarioText(`${network}run: { requests: 1, warmup: { requests: ${requests} } }\n`, 'bench-warmup-caches.yaml');
  const flowRate = measure(3, () => runScenario(flow).totalRequests);
  const cachesRate = measure(3, () => runScenario(caches).warmup.requests);
  report({ name: 'warmup.flow', requests, requestsPerSecond: flowRate.bestPerSecond, medianRequestsPerSecond: flowRate.medianPerSecond });
  report({ name: 'warmup.caches', requests, requestsPerSecond: cachesRate.bestPerSecond, medianRequestsPerSecond: cachesRate.medianPerSecond });
  report({ name: 'warmup.cachesOverFlow', ratio: Number((cachesRate.medianPerSecond / flowRate.medianPerSecond).toFixed(3)) });
}
