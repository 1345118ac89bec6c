import { createCacheStore } from '../cache/registry.js';
import type { CacheStore } from '../cache/cacheStore.js';
import { cheApproximation } from '../cache/che.js';
import { ttlCacheHitRatio } from '../cache/ttlTheory.js';
import { EDGE_LAYER, EDGE_ORIGIN_LAYERS, EdgeOriginFlow, type ServeOutcome } from '../cdn/edgeOriginFlow.js';
import { compileContentCaching, type ContentCaching } from './contentCaching.js';
import { NodeCounters, type NodeFigures } from '../metrics/nodeCounters.js';
import { RequestMetrics } from '../metrics/requestMetrics.js';
import type { Scenario, Warmup } from '../scenario/schema.js';
import { RandomStreams } from '../sim/random.js';
import { Simulation } from '../sim/simulation.js';
import { REGIONS } from '../topology/regions.js';
import { RegionLatencyModel } from '../topology/regionLatency.js';
import { Catalogue } from '../workload/catalogue.js';
import { PoissonWorkload } from '../workload/poissonWorkload.js';
import type { ClientRequest } from '../workload/request.js';

export interface RunOverrides {
  seed?: number;
  /** Stop after this many requests (replaces the scenario's run.requests). */
  requests?: number;
  /** Stop at this simulated time in ms (replaces the scenario's run.duration). */
  durationMs?: number;
}

export interface RunProgress {
  simulatedMs: number;
  requests: number;
  /** Share of the run done, 0..1, by whichever limit is closer. */
  fraction: number;
}

export interface RunOptions extends RunOverrides {
  onProgress?: (progress: RunProgress) => void;
  /** Events between progress reports. */
  progressEvery?: number;
}

export interface EdgeNodeState extends NodeFigures {
  name: string;
  /** Objects and bytes stored at the end of the run. */
  storedObjects: number;
  storedBytes: number;
}

/** What theory predicts for the edge caches, where a model applies. */
export interface EdgeTheory {
  /**
   * `che-lru`: Che's approximation for LRU without expiry under independent requests
   * (steady state, each edge). `ttl`: the TTL-cache formula λT/(1+λT) per object, for edges
   * with room for the whole catalogue (all edges together).
   */
  model: 'che-lru' | 'ttl';
  hitRatio: number;
  byteHitRatio: number;
}

export interface RunResult {
  scenario: Scenario;
  seed: number;
  /** Requests simulated, warm-up included. */
  totalRequests: number;
  warmupRequests: number;
  simulatedMs: number;
  stopReason: 'requests' | 'duration';
  /** The run length in force (scenario, or overrides): a request count and/or a horizon. */
  limits: { requests?: number; durationMs?: number };
  metrics: RequestMetrics;
  edges: EdgeNodeState[];
  /** What the policy engine decided for the content at the edge. */
  contentCaching: ContentCaching;
  /** Present when the edge policy has a model (LRU without expiry within the run: Che's approximation). */
  theory?: EdgeTheory;
  events: number;
}

/**
 * Runs one scenario: builds the catalogue, the workload, the latency model and the
 * caches from the scenario and the seed, drives them with the event kernel until the
 * request count or the simulated horizon, and returns the metrics of the measured part.
 */
export function runScenario(scenario: Scenario, options: RunOptions = {}): RunResult {
  const seed = options.seed ?? scenario.seed;
  const requestLimit = options.requests ?? (options.durationMs === undefined ? scenario.run.requests : undefined) ?? Infinity;
  const horizonMs = options.durationMs ?? (options.requests === undefined ? scenario.run.durationMs : undefined) ?? Infinity;
  if (requestLimit === Infinity && horizonMs === Infinity) throw new Error('a run needs a request count or a duration');

  const streams = new RandomStreams(seed);
  const catalogue = new Catalogue(scenario.content, streams.stream('content.sizes'));
  const latency = new RegionLatencyModel(
    {
      regionNames: REGIONS,
      clientToEdgeMedianMs: REGIONS.map((region) => scenario.latency.clientToEdge[region]),
      jitterSigma: scenario.latency.jitter,
      originLatencyMs: scenario.origin.latency,
      edgeSites: scenario.topology.edgeSites,
    },
    streams.stream('topology.latency'),
  );
  const edges: CacheStore[] = latency.edgeNames.map(() =>
    createCacheStore(scenario.edge.policy, { capacity: scenario.edge.capacity, keySpace: catalogue.size }),
  );
  const contentCaching = compileContentCaching(scenario);
  const flow = new EdgeOriginFlow(edges, latency, contentCaching.edge);
  const metrics = new RequestMetrics(EDGE_ORIGIN_LAYERS, REGIONS);
  const edgeCounters = new NodeCounters(edges.length);
  const workload = new PoissonWorkload(
    { ratePerSecond: scenario.traffic.rate, regionShares: REGIONS.map((region) => scenario.traffic.regions[region]), regionNames: REGIONS },
    catalogue,
    streams,
  );

  const { warmupCount, warmupUntilMs } = resolveWarmup(scenario.run.warmup, requestLimit, horizonMs);

  const simulation = new Simulation();
  const outcome: ServeOutcome = { layer: 0, latencyMs: 0, edge: 0 };
  let total = 0;
  let measuredFrom = -1;
  workload.attach(simulation, (request: ClientRequest) => {
    flow.serve(request, outcome);
    if (total >= warmupCount && request.timeMs >= warmupUntilMs) {
      if (measuredFrom < 0) measuredFrom = total;
      metrics.record(request.region, outcome.layer, outcome.latencyMs, request.sizeBytes);
      edgeCounters.record(outcome.edge, outcome.layer === EDGE_LAYER, request.sizeBytes);
    }
    total++;
    if (total >= requestLimit) simulation.stop();
  });

  const progressEvery = options.progressEvery ?? 100_000;
  let stopReason: RunResult['stopReason'] = 'duration';
  for (;;) {
    const result = simulation.run({ untilMs: horizonMs, maxEvents: progressEvery });
    options.onProgress?.({
      simulatedMs: simulation.nowMs,
      requests: total,
      fraction: Math.min(1, Math.max(total / requestLimit, simulation.nowMs / horizonMs)),
    });
    if (result === 'event-budget') continue;
    stopReason = result === 'stopped' ? 'requests' : 'duration';
    break;
  }

  return {
    scenario,
    seed,
    totalRequests: total,
    warmupRequests: measuredFrom < 0 ? total : measuredFrom,
    simulatedMs: simulation.nowMs,
    stopReason,
    limits: {
      ...(requestLimit === Infinity ? {} : { requests: requestLimit }),
      ...(horizonMs === Infinity ? {} : { durationMs: horizonMs }),
    },
    metrics,
    edges: edges.map((edge, i) => ({ name: latency.edgeNames[i], ...edgeCounters.figures(i), storedObjects: edge.objectCount, storedBytes: edge.occupancy })),
    contentCaching,
    theory: edgeTheory(scenario, catalogue, contentCaching, simulation.nowMs),
    events: simulation.eventsProcessed,
  };
}

/**
 * The warm-up as a request count and a simulated time, both of which must pass before
 * requests are measured. A share of the run is a share of its request count when it has
 * one, else of its duration.
 */
function resolveWarmup(warmup: Warmup, requestLimit: number, horizonMs: number): { warmupCount: number; warmupUntilMs: number } {
  switch (warmup.kind) {
    case 'requests':
      return { warmupCount: warmup.requests, warmupUntilMs: -Infinity };
    case 'time':
      return { warmupCount: 0, warmupUntilMs: warmup.ms };
    case 'fraction':
      return requestLimit !== Infinity
        ? { warmupCount: Math.floor(warmup.fraction * requestLimit), warmupUntilMs: -Infinity }
        : { warmupCount: 0, warmupUntilMs: warmup.fraction * horizonMs };
  }
}

/**
 * Che's approximation models LRU without expiry: it applies while no stored copy can expire
 * within the run. The TTL formula models expiry without eviction: it applies when every
 * edge can hold the whole catalogue, whatever its policy.
 */
function edgeTheory(scenario: Scenario, catalogue: Catalogue, caching: ContentCaching, runMs: number): EdgeTheory | undefined {
  if (!caching.edge.store || caching.edge.ttlMs <= 0) return undefined;
  if (caching.edge.ttlMs >= runMs) return scenario.edge.policy === 'lru' ? cheTheory(catalogue, scenario.edge.capacity) : undefined;
  if (catalogue.totalBytes() > scenario.edge.capacity) return undefined;
  // Each edge sees its share of the traffic; with one edge for everyone the share is 1.
  const shares = scenario.topology.edgeSites === 'single' ? [1] : REGIONS.map((region) => scenario.traffic.regions[region]);
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

