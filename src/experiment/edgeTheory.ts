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
 * its policy.
 */
export function edgeTheory(scenario: Scenario, catalogue: Catalogue, caching: ClassCaching, runMs: number): EdgeTheory | undefined {
  if (!caching.edge.store || caching.edge.ttlMs <= 0) return undefined;
  if (caching.edge.ttlMs >= runMs) return scenario.edge.policy === 'lru' ? cheTheory(catalogue, scenario.edge.capacity) : undefined;
  if (catalogue.totalBytes() > scenario.edge.capacity) return undefined;
  // Each edge sees its share of the traffic; with one edge for everyone the share is 1.
  const shares = scenario.topology.model === 'regions' && scenario.topology.edgeSites === 'single' ? [1] : REGIONS.map((region) => scenario.traffic.regions[region]);
  let hitRatio = 0;
  let byteHitRatio = 0;
  for (const share of shares) {
    if (share === 0) continue;
    const prediction = ttlCacheHitRatio(catalogue.popularity, scenario.traffic.rate * share, caching.edge.ttlMs / 1000, catalogue.objectSizes);
    hitRatio += share * prediction.hitRatio;
    byteHitRatio += share * prediction.byteHitRatio;
  }
  return { model: 'ttl', hitRatio, byteHitRatio };
}

/**
 * Every edge sees the same popularity (each region draws from the whole catalogue) and has
 * the same capacity, so one steady-state prediction holds for each edge and for all of them.
 */
function cheTheory(catalogue: Catalogue, capacity: number): EdgeTheory {
  const che = cheApproximation(catalogue.popularity, catalogue.objectSizes, capacity);
  return { model: 'che-lru', hitRatio: che.hitRatio, byteHitRatio: che.byteHitRatio };
}
