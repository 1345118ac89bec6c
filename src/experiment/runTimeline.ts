import { OUTCOME_STALE_ON_ERROR, OUTCOME_STALE_ON_REFUSED, OUTCOME_STALE_WHILE_REVALIDATE, type OriginActivity } from '../cdn/layeredFlow.js';
import type { CacheNode } from '../cdn/cacheNode.js';
import type { RunLayers } from '../cdn/runLayers.js';
import type { RequestMetrics } from '../metrics/requestMetrics.js';
import { RunTimeline, type TimelineFigures } from '../metrics/runTimeline.js';
import type { Scenario } from '../scenario/schema.js';
import type { NodeState } from './runResult.js';

/** The time series and per-PoP capacity of the measured part, fed by the run's sink; `layers` are the run's (its absent layers −1, as the series expects). */
export function newTimeline(scenario: Scenario, layers: RunLayers, metrics: RequestMetrics, edges: readonly CacheNode[], origin: OriginActivity): RunTimeline {
  return new RunTimeline({
    intervalMs: scenario.metrics.intervalMs,
    layers,
    origin,
    latency: metrics.all,
    staleBits: OUTCOME_STALE_WHILE_REVALIDATE | OUTCOME_STALE_ON_ERROR | OUTCOME_STALE_ON_REFUSED,
    edgeStores: edges.map((edge) => edge.store),
  });
}

/** Each edge cache's state with its capacity figures (pops.csv), when the run recorded them. */
export function withCapacity(edges: NodeState[], timeline: TimelineFigures | undefined): NodeState[] {
  return timeline === undefined ? edges : edges.map((edge, i) => ({ ...edge, capacity: timeline.edges[i] }));
}
