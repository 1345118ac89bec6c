import type { ModelClassFacts } from '../workload/trafficModels/modelTraffic.js';
import type { AdaptiveFigures } from '../cdn/adaptiveController.js';
import type { PopCapacityFigures } from '../metrics/popCapacity.js';
import type { TimelineFigures } from '../metrics/runTimeline.js';
import type { UpstreamFigures } from '../metrics/upstreamLoad.js';
import type { LatencySummary } from '../metrics/latencyHistogram.js';
import type { RunCurves } from './runCurves.js';
import type { NodeFigures } from '../metrics/nodeCounters.js';
import type { OutcomeFigures } from '../metrics/cdnOutcomes.js';
import type { RequestMetrics } from '../metrics/requestMetrics.js';
import type { CompiledDecision } from '../policy/compile.js';
import type { LayerActivity, OriginActivity } from '../cdn/layeredFlow.js';
import type { RunLayers } from '../cdn/runLayers.js';
import type { Scenario } from '../scenario/schema.js';
import type { Region } from '../topology/regions.js';
import type { ClassCatalogueFacts } from './catalogueFacts.js';
import type { ContentCaching } from './contentCaching.js';
import type { IncidentFigures } from './incidentWindows.js';
import type { WarmupFacts } from './cacheWarmup.js';

/** What one run returns: the figures of its measured part, and the facts a reader needs to trust them. */

export interface NodeState extends NodeFigures {
  name: string;
  /** The region the node is in; absent for the regions model's single global edge. */
  region?: Region;
  /** Objects and bytes stored at the end of the run. */
  storedObjects: number;
  storedBytes: number;
  /** The node's own capacity (per-node capacities, docs/plan.md); absent where not recorded. */
  capacityBytes?: number;
  /** Model pops, edge caches: the PoP's place and its uplink (spec 1.1). */
  latitude?: number;
  longitude?: number;
  uplinkBitsPerSecond?: number;
  /** Edge caches: peak egress, request rate and contents over the measured part (absent when the run records no timeline). */
  capacity?: PopCapacityFigures;
}

/** What theory predicts for the edge caches, where a model applies. */
export interface EdgeTheory {
  /**
   * `che-lru`: Che's approximation for LRU without expiry under independent requests
   * (steady state, each edge). `ttl`: the TTL-cache formula λ(T−D)/(1+λT) per object, for
   * edges with room for the whole catalogue (all edges together).
   */
  model: 'che-lru' | 'ttl';
  hitRatio: number;
  byteHitRatio: number;
  /** `ttl`: the miss delay D the formula used (time from an edge miss until the response is stored there), ms. */
  missDelayMs?: number;
}

/** A class's catalogue as the run starts, then what churn did to it over the run. */
export interface ClassChurn extends ClassCatalogueFacts {
  /** Objects that appeared during the run, one-hit wonders included. */
  newObjects: number;
  oneHitWonders: number;
  updates: number;
}

export interface RecordingFacts {
  file: string;
  use: 'amplify' | 'replay';
  /** Distinct GET URLs (the catalogue) and GET requests in the file. */
  objects: number;
  requests: number;
  /** Records left out: not GET, by method; skipped by the reader (non-HTTP URLs, blocked, malformed). */
  nonGet: Readonly<Record<string, number>>;
  skipped: number;
}

/** Per content class (class-id order); see RunResult.classes. */
export interface ClassFigures {
  edge: NodeFigures;
  cdn: NodeFigures;
  browser?: NodeFigures;
  churn: ClassChurn;
}

export interface CdnActivity {
  coalescing: boolean;
  validators: boolean;
  /** Per node layer (edge, and regional with a tier). */
  layers: Record<string, LayerActivity>;
  origin: OriginActivity;
  /** Over the measured requests. */
  outcomes: OutcomeFigures;
}

export interface RunResult {
  scenario: Scenario;
  seed: number;
  /** Requests simulated, warm-up included. */
  totalRequests: number;
  warmupRequests: number;
  /** How the caches were warmed before the measured part (src/experiment/cacheWarmup.ts). */
  warmup: WarmupFacts;
  simulatedMs: number;
  /** `recording`: a replayed recording ran out of requests before either limit. */
  stopReason: 'requests' | 'duration' | 'recording';
  /** content.recorded: what was read from the file. */
  recording?: RecordingFacts;
  /** The run length in force (scenario, or overrides): a request count and/or a horizon. */
  limits: { requests?: number; durationMs?: number };
  metrics: RequestMetrics;
  /** Body transfer time through the PoP's uplink, after the first byte (model pops only). */
  transfer?: LatencySummary;
  /** The run's layers (browser caches? a regional tier?): the metrics' layer names and indices. */
  layers: RunLayers;
  /** One per edge cache: a region's edge, or a PoP. */
  edges: NodeState[];
  /** One per regional site (empty without a regional tier). */
  regionals: NodeState[];
  /** What the policy engine decided for each class of content. */
  contentCaching: ContentCaching;
  /**
   * Per content class (class-id order): its requests at the edge, those any CDN layer served,
   * and the churn over the whole run, warm-up included (new objects, of which one-hit wonders;
   * updates). With browser caches, `browser` counts all the class's requests and those the
   * browser answered; `edge` and `cdn` count those that reached the edge.
   */
  classes: ClassFigures[];
  /** Present when the edge policy has a model (LRU without expiry within the run: Che's approximation). */
  theory?: EdgeTheory;
  /** What the CDN's nodes did on the clock (measured part): coalescing, revalidation, stale serves, errors, the origin's load. */
  cdn: CdnActivity;
  /** Each incident of the scenario: the requests sent during it, all of the run (warm-up included). */
  incidents: IncidentFigures[];
  /** Measured requests for byte ranges (spec 4.8), and the 5 MB chunks they needed. */
  rangeRequests: { requests: number; chunks: number };
  /** Per status an error burst sends: the edge's compiled decision for it (spec 7.1: a 500 without explicit freshness is cached 5 s). */
  errorCaching: { status: number; edge: CompiledDecision }[];
  /** The measured part on the clock: one row per `metrics.interval` (timeseries.csv); absent with `timeline: false`. */
  timeline?: TimelineFigures;
  /** The origin's and each regional site's load per second from the measured requests' work (docs/capacity.md); absent where a run does not record it. */
  upstream?: UpstreamFigures;
  /** The adaptive TTL controller's windows and adjustments (spec 1.2 item 6); absent when it is off. */
  adaptive?: AdaptiveFigures;
  /** run.curves: every LRU node's stack-distance histogram (curves.csv, docs/curves.md). */
  curves?: RunCurves;
  /** Classes with a traffic model: their PoP streams, stacks and objects (docs/traffic-models.md). */
  trafficModels?: ModelClassFacts[];
  events: number;
}
