import {
  OUTCOME_CACHED_ERROR,
  OUTCOME_COALESCED_EDGE,
  OUTCOME_COALESCED_REGIONAL,
  OUTCOME_REVALIDATED,
  OUTCOME_STALE_ON_ERROR,
  OUTCOME_STALE_ON_REFUSED,
  OUTCOME_STALE_WHILE_REVALIDATE,
  type CompletedRequest,
} from '../cdn/layeredFlow.js';
import type { CacheNode } from '../cdn/cacheNode.js';
import type { RunLayers } from '../cdn/runLayers.js';
import { CdnOutcomes } from '../metrics/cdnOutcomes.js';
import { LatencyHistogram } from '../metrics/latencyHistogram.js';
import { NodeCounters } from '../metrics/nodeCounters.js';
import { RequestMetrics } from '../metrics/requestMetrics.js';
import { REGIONS } from '../topology/regions.js';
import type { Incident } from '../workload/incidents/incidentSchema.js';
import { incidentWindows, type IncidentFigures } from './incidentWindows.js';
import type { ClassChurn, ClassFigures, NodeState } from './runResult.js';
import type { NodePlace } from './runNetwork.js';

/** Slots of RunRecorder's `times`. */
const TIME_LATENCY = 0;
const TIME_TRANSFER = 1;

/** The shape of the run the recorder counts for. */
export interface RecorderLayout {
  /** The run's layers: the metrics' layers are the flow's (browser first with browser caches). */
  readonly layers: RunLayers;
  readonly edgeCount: number;
  readonly regionalCount: number;
  readonly classCount: number;
  readonly incidents: readonly Incident[];
}

/**
 * Where every completed request goes: the layer that served it, its latency and bytes per
 * region, per edge and regional node, per content class, what happened on the way
 * (coalescing, revalidation, stale serves, errors) and the incident windows. Fixed memory:
 * counters and histograms only (DESIGN "Hot path").
 */
export class RunRecorder {
  readonly metrics: RequestMetrics;
  readonly transfer = new LatencyHistogram();
  readonly outcomes = new CdnOutcomes({
    coalescedEdge: OUTCOME_COALESCED_EDGE,
    coalescedRegional: OUTCOME_COALESCED_REGIONAL,
    revalidated: OUTCOME_REVALIDATED,
    staleWhileRevalidate: OUTCOME_STALE_WHILE_REVALIDATE,
    staleOnError: OUTCOME_STALE_ON_ERROR,
    staleOnRefused: OUTCOME_STALE_ON_REFUSED,
    cachedError: OUTCOME_CACHED_ERROR,
  });
  private readonly windows: ReturnType<typeof incidentWindows>;
  private readonly edgeCounters: NodeCounters;
  private readonly regionalCounters: NodeCounters;
  private readonly classEdgeCounters: NodeCounters;
  private readonly classCdnCounters: NodeCounters;
  private readonly classBrowserCounters: NodeCounters | null;
  /** Flow layers (the metrics' layer indices), copied from RunLayers: read per request. */
  private readonly browserLayer: number;
  private readonly edgeLayer: number;
  private readonly regionalLayer: number;
  private readonly originLayer: number;
  /**
   * The measured request's time to first byte and transfer time (TIME_*), handed to the
   * histograms in this reused array: issue 27, a double passed as an argument to a call the
   * optimiser does not inline is a new heap number per request.
   */
  private readonly times = new Float64Array(2);

  constructor(layout: RecorderLayout) {
    const { layers } = layout;
    this.metrics = new RequestMetrics(layers.names, REGIONS);
    this.browserLayer = layers.browser;
    this.edgeLayer = layers.edge;
    this.regionalLayer = layers.regional;
    this.originLayer = layers.origin;
    this.windows = incidentWindows(layout.incidents);
    this.edgeCounters = new NodeCounters(layout.edgeCount);
    this.regionalCounters = new NodeCounters(layout.regionalCount);
    this.classEdgeCounters = new NodeCounters(layout.classCount);
    this.classCdnCounters = new NodeCounters(layout.classCount);
    this.classBrowserCounters = layers.browsers ? new NodeCounters(layout.classCount) : null;
  }

  /** Every request, warm-up included: the incident windows cover the whole run. */
  recordAny(done: CompletedRequest): void {
    this.windows.record(done);
  }

  /** A measured request. */
  record(done: CompletedRequest): void {
    const c = done.classId;
    const layer = done.layer;
    this.outcomes.record(done.outcome, done.status, done.staleForMs);
    const bytes = done.sizeBytes;
    this.classBrowserCounters?.record(c, layer === this.browserLayer, bytes, layer === this.browserLayer ? bytes : 0);
    // Byte figures per chunk (spec 4.8): each layer is credited with the client bytes its pieces supplied.
    const times = this.times;
    times[TIME_LATENCY] = done.latencyMs;
    times[TIME_TRANSFER] = done.transferMs;
    this.metrics.recordSplit(done.region, layer, times, TIME_LATENCY, done.servedBytes);
    if (layer < this.edgeLayer) return;
    if (times[TIME_TRANSFER] >= 0) this.transfer.recordAt(times, TIME_TRANSFER);
    const edgeBytes = done.servedBytes[this.edgeLayer];
    this.edgeCounters.record(done.edge, layer === this.edgeLayer, bytes, edgeBytes);
    // The regional site was asked for the bytes the PoP did not hold (done.regional ≥ 0 only with a tier, so regionalLayer is a real layer here).
    if (done.regional >= 0) this.regionalCounters.record(done.regional, layer === this.regionalLayer, bytes - edgeBytes, done.servedBytes[this.regionalLayer]);
    this.classEdgeCounters.record(c, layer === this.edgeLayer, bytes, edgeBytes);
    this.classCdnCounters.record(c, layer < this.originLayer, bytes, bytes - done.servedBytes[this.originLayer]);
  }

  edgeStates(caches: readonly CacheNode[], places: readonly NodePlace[]): NodeState[] {
    return nodeStates(caches, places, this.edgeCounters);
  }

  regionalStates(caches: readonly CacheNode[], places: readonly NodePlace[]): NodeState[] {
    return nodeStates(caches, places, this.regionalCounters);
  }

  /** Per class; `churnOf` gives the class's churn over the whole run. */
  classFigures(classCount: number, churnOf: (classId: number) => ClassChurn): ClassFigures[] {
    return Array.from({ length: classCount }, (_, c) => ({
      edge: this.classEdgeCounters.figures(c),
      cdn: this.classCdnCounters.figures(c),
      ...(this.classBrowserCounters === null ? {} : { browser: this.classBrowserCounters.figures(c) }),
      churn: churnOf(c),
    }));
  }

  incidentFigures(runEndMs: number, originRequests: (fromMs: number, toMs: number) => number): IncidentFigures[] {
    return this.windows.figures(runEndMs, originRequests);
  }
}

function nodeStates(caches: readonly CacheNode[], places: readonly NodePlace[], counters: NodeCounters): NodeState[] {
  return caches.map((cache, i) => ({ ...places[i], ...counters.figures(i), storedObjects: cache.store.objectCount, storedBytes: cache.store.occupancy, capacityBytes: cache.store.capacity }));
}
