import { cheApproximation } from '../cache/che.js';
import { ttlCacheHitRatio } from '../cache/ttlTheory.js';
import type { Scenario } from '../scenario/schema.js';
import { REGIONS } from '../topology/regions.js';
import type { Catalogue } from '../workload/catalogue.js';
import type { ClassCaching } from './contentCaching.js';
import type { EdgeTheory } from './runResult.js';

/**
 * What theory predicts for a single-class run's edges. Che's approximation models LRU without
 * expiry: it applies while no stored copy can expire within the run. The TTL formula models
 * expiry without eviction: it applies when every edge can hold the whole catalogue, whatever
 * its policy, and counts the requests that arrive while a miss is being fetched as misses
 * (edgeMissDelayMs).
 */
export function edgeTheory(scenario: Scenario, catalogue: Catalogue, caching: ClassCaching, runMs: number): EdgeTheory | undefined {
  if (!caching.edge.store || caching.edge.ttlMs <= 0) return undefined;
  if (caching.edge.ttlMs >= runMs) return scenario.edge.policy === 'lru' ? cheTheory(catalogue, scenario.edge.capacity) : undefined;
  if (catalogue.totalBytes() > scenario.edge.capacity) return undefined;
  // Each edge sees its share of the traffic; with one edge for everyone the share is 1.
  const shares = scenario.topology.model === 'regions' && scenario.topology.edgeSites === 'single' ? [1] : REGIONS.map((region) => scenario.traffic.regions[region]);
  const missDelayMs = edgeMissDelayMs(scenario);
  if (missDelayMs === undefined) return undefined;
  let hitRatio = 0;
  let byteHitRatio = 0;
  for (const share of shares) {
    if (share === 0) continue;
    const ttlSeconds = caching.edge.ttlMs / 1000;
    const prediction = ttlCacheHitRatio(catalogue.popularity, scenario.traffic.rate * share, ttlSeconds, catalogue.objectSizes, missDelayMs / 1000, scenario.cdn.coalescing);
    hitRatio += share * prediction.hitRatio;
    byteHitRatio += share * prediction.byteHitRatio;
  }
  return { model: 'ttl', hitRatio, byteHitRatio, missDelayMs };
}

/**
 * The miss delay D of every edge: the time from a miss at the edge until the response is
 * stored there. On the regions model a miss reaches the origin at once, the origin answers
 * after the fixed `originLatency` (the edge → origin → edge time, service included), and the
 * answer is stored that moment with its freshness counted from then: so D is the origin
 * latency, the same for each edge, and no averaging over edges is needed. The pops model
 * (lognormal service times, a regional tier in between) has no closed form: undefined.
 */
export function edgeMissDelayMs(scenario: Scenario): number | undefined {
  return scenario.topology.model === 'regions' ? scenario.topology.originLatencyMs : undefined;
}

/**
 * Every edge sees the same popularity (each region draws from the whole catalogue) and has
 * the same capacity, so one steady-state prediction holds for each edge and for all of them.
 */
function cheTheory(catalogue: Catalogue, capacity: number): EdgeTheory {
  const che = cheApproximation(catalogue.popularity, catalogue.objectSizes, capacity);
  return { model: 'che-lru', hitRatio: che.hitRatio, byteHitRatio: che.byteHitRatio };
}
