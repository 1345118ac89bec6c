import { createCacheStore, type OnlineCachePolicyName } from '../cache/registry.js';
import { SparseKeyStore } from '../cache/sparseKeyStore.js';
import { cheApproximation } from '../cache/che.js';
import { ttlCacheHitRatio } from '../cache/ttlTheory.js';
import { RegionNetwork, TopologyNetwork, type FlowNetwork } from '../cdn/flowNetwork.js';
import {
  LayeredFlow,
  OUTCOME_CACHED_ERROR,
  OUTCOME_COALESCED_EDGE,
  OUTCOME_COALESCED_REGIONAL,
  OUTCOME_REVALIDATED,
  OUTCOME_STALE_ON_ERROR,
  OUTCOME_STALE_ON_REFUSED,
  OUTCOME_STALE_WHILE_REVALIDATE,
  type CompletedRequest,
  type LayerActivity,
  type OriginActivity,
} from '../cdn/layeredFlow.js';
import { OriginModel } from '../cdn/origin.js';
import type { CompiledDecision } from '../policy/compile.js';
import { SharedCacheNode } from '../cdn/sharedCacheNode.js';
import { CdnOutcomes, type OutcomeFigures } from '../metrics/cdnOutcomes.js';
import { IncidentSchedule, INCIDENT_START } from '../workload/incidents/incidentSchedule.js';
import type { Incident } from '../workload/incidents/incidentSchema.js';
import { incidentWindows, type IncidentFigures } from './incidentWindows.js';
import { CATALOGUE_OBJECT_URL, compileContentCaching, scenarioDeployment, type ClassCaching, type ContentCaching } from './contentCaching.js';
import { BrowserCaches } from '../cdn/browserCaches.js';
import { classObjectTraits, recordedObjectTraits } from './requestVariants.js';
import { compileRecordedCaching } from './recordedCaching.js';
import { recordedCatalogue } from '../workload/realTraffic/recordedCatalogue.js';
import type { RecordedTraffic } from '../workload/realTraffic/trafficCatalogue.js';
import { RecordedWorkload } from '../workload/recordedWorkload.js';
import { ClientTraffic } from '../workload/requests/clientTraffic.js';
import { RequestKeys } from '../workload/requests/requestKeys.js';
import { RequestAttributeSampler } from '../workload/requests/requestAttributes.js';
import { requestAttributeSpec, type RequestAttributesSettings } from '../workload/requests/requestAttributesSchema.js';
import { NodeCounters, type NodeFigures } from '../metrics/nodeCounters.js';
import { RequestMetrics } from '../metrics/requestMetrics.js';
import { LatencyHistogram, type LatencySummary } from '../metrics/latencyHistogram.js';
import type { TimelineFigures } from '../metrics/runTimeline.js';
import { newTimeline } from './runTimeline.js';
import type { PopCapacityFigures } from '../metrics/popCapacity.js';
import { DEFAULT_UPLINK_BITS_PER_SECOND } from '../topology/bandwidth.js';
import type { Scenario, Warmup } from '../scenario/schema.js';
import { topologySpecOf } from '../scenario/scenarioTopology.js';
import { RandomStreams } from '../sim/random.js';
import { Simulation } from '../sim/simulation.js';
import { REGIONS, type Region } from '../topology/regions.js';
import { RegionLatencyModel } from '../topology/regionLatency.js';
import { TopologyLatencyModel } from '../topology/latencyModel.js';
import { buildTopology } from '../topology/topology.js';
import { Catalogue } from '../workload/catalogue.js';
import { ClassCatalogue, classCatalogueObjects } from '../workload/content/classCatalogue.js';
import { ContentChurn, churnReservation } from '../workload/content/churn.js';
import type { ContentClass } from '../workload/content/contentClasses.js';
import type { ObjectCatalogue } from '../workload/objectCatalogue.js';
import { ShapedWorkload } from '../workload/shapedWorkload.js';
import { buildClientPlaces, DEFAULT_MOBILE_SHARES, loadClientCities, type ClientPlaces } from '../topology/clients.js';
import type { ClientRequest } from '../workload/request.js';


export interface RunOverrides {
  seed?: number;
  /** Stop after this many requests (replaces the scenario's run.requests). */
  requests?: number;
  /** Stop at this simulated time in ms (replaces the scenario's run.duration). */
  durationMs?: number;
}

/** What a run reads before it starts (async: files). */
export interface RunInputs {
  /** content.recorded, read with loadScenarioRecording. */
  recording?: RecordedTraffic;
}

export interface RunProgress {
  simulatedMs: number;
  requests: number;
  /** Share of the run done, 0..1, by whichever limit is closer. */
  fraction: number;
}

export interface RunOptions extends RunOverrides, RunInputs {
  onProgress?: (progress: RunProgress) => void;
  /** Events between progress reports. */
  progressEvery?: number;
  /** false: no time series and no per-PoP capacity (the bench measures what recording them costs). */
  timeline?: boolean;
}

export interface NodeState extends NodeFigures {
  name: string;
  /** The region the node is in; absent for the regions model's single global edge. */
  region?: Region;
  /** Model pops, edge caches: the PoP's place and its uplink (spec 1.1). */
  latitude?: number;
  longitude?: number;
  uplinkBitsPerSecond?: number;
  /** Objects and bytes stored at the end of the run. */
  storedObjects: number;
  storedBytes: number;
  /** Edge caches: peak egress, request rate and contents over the measured part (absent when the run records no timeline). */
  capacity?: PopCapacityFigures;
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

export interface ClassChurn {
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

export interface RunResult {
  scenario: Scenario;
  seed: number;
  /** Requests simulated, warm-up included. */
  totalRequests: number;
  warmupRequests: number;
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
  /** The CDN layers that cache, in request order (edge, and regional when the tier is on). */
  cacheLayers: readonly string[];
  /** Whether clients have browser caches (traffic.clients): the metrics' first layer is then `browser`. */
  browserLayer: boolean;
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
  classes: { edge: NodeFigures; cdn: NodeFigures; browser?: NodeFigures; churn: ClassChurn }[];
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
  events: number;
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


/**
 * Runs one scenario: builds the catalogue, the workload, the latency model and the
 * caches from the scenario and the seed, drives them with the event kernel until the
 * request count or the simulated horizon, and returns the metrics of the measured part.
 */
export function runScenario(scenario: Scenario, options: RunOptions = {}): RunResult {
  const seed = options.seed ?? scenario.seed;
  const scenarioRequestLimit = options.requests ?? (options.durationMs === undefined ? scenario.run.requests : undefined) ?? Infinity;
  // A replayed recording is as long as it is: the request count (and a warm-up share of it) never exceeds it.
  const requestLimit =
    scenario.content.recorded?.use === 'replay' && options.recording ? Math.min(scenarioRequestLimit, options.recording.requestObjects.length) : scenarioRequestLimit;
  const horizonMs = options.durationMs ?? (options.requests === undefined ? scenario.run.durationMs : undefined) ?? Infinity;
  if (requestLimit === Infinity && horizonMs === Infinity) throw new Error('a run needs a request count or a duration');

  const streams = new RandomStreams(seed);
  const recorded = scenario.content.recorded;
  const recording = recorded === undefined ? undefined : requireRecording(options.recording, recorded.file);
  const recordedCaching = recording === undefined ? undefined : compileRecordedCaching(recording, scenarioDeployment(scenario));
  const classes = scenario.content.classes ?? [];
  const classCatalogue = scenario.content.classes === undefined ? undefined : buildClassCatalogue(classes, scenario, requestLimit, horizonMs, streams);
  const singleClass = recorded === undefined && classCatalogue === undefined ? new Catalogue(scenario.content, streams.stream('content.sizes')) : undefined;
  const catalogue: ObjectCatalogue =
    recording && recorded && recordedCaching
      ? recordedCatalogue(recording, recorded.popularity, recordedCaching.classOf)
      : classCatalogue
        ? classCatalogueObjects(classCatalogue)
        : (singleClass as Catalogue);
  const contentCaching = recordedCaching?.caching ?? compileContentCaching(scenario);
  const clientSettings = scenario.traffic.clients;
  const clients = clientSettings === undefined ? null : buildClientTraffic(scenario, clientSettings, catalogue, classCatalogue, recording, streams);
  const network = buildNetwork(scenario, streams);
  const classCount = contentCaching.classes.length;
  const classEdgeCounters = new NodeCounters(classCount);
  const classCdnCounters = new NodeCounters(classCount);
  const classBrowserCounters = new NodeCounters(classCount);
  const browsers = clients === null ? null : new BrowserCaches(clients.sampler.population.slots, clients.sampler.population.recentObjects);
  const classOf = catalogue.classOf;
  const replay = recording !== undefined && recorded?.use === 'replay';
  const workload = replay
    ? new RecordedWorkload({ traffic: recording, places: network.places, speed: recorded.speed }, catalogue, streams)
    : new ShapedWorkload({ ratePerSecond: scenario.traffic.rate, shape: scenario.traffic, places: network.places }, catalogue, streams, clients);

  const { warmupCount, warmupUntilMs } = resolveWarmup(scenario.run.warmup, requestLimit, horizonMs);

  const simulation = new Simulation();
  // Churn belongs to content classes, which a recording never has: the workload is then shaped.
  const churn = classCatalogue && workload instanceof ShapedWorkload ? new ContentChurn(classCatalogue, classes.map((klass) => klass.churn), streams) : undefined;
  const schedule = new IncidentSchedule(scenario.incidents);
  const origin = new OriginModel(
    scenario.incidents.length === 0 ? null : schedule.conditions,
    Int32Array.from(contentCaching.classes, (klass) => schedule.conditions.classSlot(klass.name)),
    churn?.versionOf ?? null,
    catalogue.size,
    streams.stream('origin.errors'),
    () => network.network.originServiceMs(),
  );
  if (churn && workload instanceof ShapedWorkload) {
    churn.attach(simulation, {
      onOneHitWonder: (id) => workload.requestOnce(id),
      onUpdate: (id, previous) => {
        if (id === previous) origin.noteUpdate(id, simulation.nowMs);
      },
    });
  }
  schedule.schedule(simulation, (index, phase) => {
    const incident = scenario.incidents[index];
    if (incident.kind !== 'deploy' || phase !== INCIDENT_START) return;
    const touched = contentCaching.classes.flatMap((klass, c) => (incident.classes.length === 0 || incident.classes.includes(klass.name) ? [c] : []));
    origin.noteDeploy(touched, simulation.nowMs);
  });

  const metrics = new RequestMetrics(browsers === null ? network.layerNames : ['browser', ...network.layerNames], REGIONS);
  const edgeLayer = browsers === null ? 0 : 1;
  const regionalLayer = edgeLayer + 1;
  const originLayer = metrics.layerNames.length - 1;
  const edgeCounters = new NodeCounters(network.edges.length);
  const regionalCounters = new NodeCounters(network.regionals.length);
  const transfer = new LatencyHistogram();
  const outcomes = new CdnOutcomes({
    coalescedEdge: OUTCOME_COALESCED_EDGE,
    coalescedRegional: OUTCOME_COALESCED_REGIONAL,
    revalidated: OUTCOME_REVALIDATED,
    staleWhileRevalidate: OUTCOME_STALE_WHILE_REVALIDATE,
    staleOnError: OUTCOME_STALE_ON_ERROR,
    staleOnRefused: OUTCOME_STALE_ON_REFUSED,
    cachedError: OUTCOME_CACHED_ERROR,
  });
  const windows = incidentWindows(scenario.incidents);
  let measuredFrom = -1;
  let accepting = true;
  const record = (done: CompletedRequest): void => {
    windows.record(done);
    // The run has ended and the last request in flight is back.
    if (!accepting && flow.requestsInFlight === 0) simulation.stop();
    if (measuredFrom < 0 || done.seq < measuredFrom) return;
    timeline?.record(simulation.nowMs, done);
    const c = done.classId;
    const layer = done.layer;
    outcomes.record(done.outcome, done.status, done.staleForMs);
    if (browsers !== null) classBrowserCounters.record(c, layer === 0, done.sizeBytes);
    metrics.record(done.region, layer, done.latencyMs, done.sizeBytes);
    if (layer < edgeLayer) return;
    if (done.transferMs >= 0) transfer.record(done.transferMs);
    edgeCounters.record(done.edge, layer === edgeLayer, done.sizeBytes);
    if (done.regional >= 0) regionalCounters.record(done.regional, layer === regionalLayer, done.sizeBytes);
    classEdgeCounters.record(c, layer === edgeLayer, done.sizeBytes);
    classCdnCounters.record(c, layer < originLayer, done.sizeBytes);
  };
  const errorClassOf = compileErrorClasses(contentCaching, scenario.incidents);
  const flow = new LayeredFlow({
    simulation,
    network: network.network,
    edges: network.edges,
    regionals: network.regionals,
    decisions: contentCaching.table,
    errorClassOf,
    classOf,
    origin,
    browsers,
    coalescing: scenario.cdn.coalescing,
    validators: scenario.cdn.validators,
    cdnEnabled: scenario.deployment.cdn,
    purgeDelayMs: scenario.cdn.purgeDelayMs,
    onComplete: record,
  });
  const timeline = options.timeline === false ? null : newTimeline(scenario, metrics.layerNames, network.edges, flow.originActivity);
  let total = 0;
  const rangeRequests = { requests: 0, chunks: 0 };
  workload.attach(simulation, (request: ClientRequest) => {
    if (!accepting) return;
    const seq = total++;
    if (measuredFrom < 0 && seq >= warmupCount && request.timeMs >= warmupUntilMs) {
      measuredFrom = seq;
      flow.measuring = true;
      timeline?.start(request.timeMs);
    }
    if (measuredFrom >= 0 && request.firstChunk >= 0) {
      rangeRequests.requests++;
      rangeRequests.chunks += request.pieces;
    }
    flow.serve(request, seq);
    if (total >= requestLimit) {
      accepting = false;
      simulation.stop();
    }
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
    const recordingEnded = replay && total === recording.requestObjects.length && total < scenarioRequestLimit;
    stopReason = recordingEnded ? 'recording' : result === 'stopped' ? 'requests' : 'duration';
    break;
  }
  const simulatedMs = simulation.nowMs;
  // Requests sent before the end are answered: the clock runs on, taking no new ones, until the last is back.
  accepting = false;
  while (flow.requestsInFlight > 0) {
    if (simulation.run() !== 'stopped') break;
  }
  const timelineFigures = timeline?.finish(simulation.nowMs);

  const nodeStates = (caches: readonly SharedCacheNode[], nodes: readonly NodePlace[], counters: NodeCounters, capacity?: readonly PopCapacityFigures[]): NodeState[] =>
    caches.map((cache, i) => ({
      ...nodes[i],
      ...counters.figures(i),
      storedObjects: cache.store.objectCount,
      storedBytes: cache.store.occupancy,
      ...(capacity ? { capacity: capacity[i] } : {}),
    }));
  const activity: Record<string, LayerActivity> = { edge: flow.layerActivity[0] };
  if (network.regionals.length > 0) activity.regional = flow.layerActivity[1];
  return {
    scenario,
    seed,
    totalRequests: total,
    warmupRequests: measuredFrom < 0 ? total : measuredFrom,
    simulatedMs,
    stopReason,
    ...(recording && recorded
      ? {
          recording: {
            file: recorded.file,
            use: recorded.use,
            objects: recording.urls.length,
            requests: recording.requestObjects.length,
            nonGet: recording.nonGet,
            skipped: recording.skipped.total,
          },
        }
      : {}),
    limits: {
      ...(requestLimit === Infinity ? {} : { requests: requestLimit }),
      ...(horizonMs === Infinity ? {} : { durationMs: horizonMs }),
    },
    metrics,
    cacheLayers: network.layerNames.filter((layer) => layer !== 'origin'),
    browserLayer: browsers !== null,
    ...(transfer.count > 0 ? { transfer: transfer.summary() } : {}),
    edges: nodeStates(network.edges, network.edgeNodes, edgeCounters, timelineFigures?.edges),
    regionals: nodeStates(network.regionals, network.regionalNodes, regionalCounters),
    contentCaching,
    classes: contentCaching.classes.map((_, c) => ({
      edge: classEdgeCounters.figures(c),
      cdn: classCdnCounters.figures(c),
      ...(browsers === null ? {} : { browser: classBrowserCounters.figures(c) }),
      churn: {
        newObjects: churn?.newObjectCount[c] ?? 0,
        oneHitWonders: churn?.oneHitWonderCount[c] ?? 0,
        updates: churn?.updateCount[c] ?? 0,
      },
    })),
    theory: network.theoryApplies && singleClass ? edgeTheory(scenario, singleClass, contentCaching.classes[0], simulatedMs) : undefined,
    cdn: { coalescing: scenario.cdn.coalescing, validators: scenario.cdn.validators, layers: activity, origin: { ...flow.originActivity }, outcomes: outcomes.figures() },
    incidents: windows.figures(simulatedMs, (fromMs, toMs) => flow.originArrivals.between(fromMs, toMs)),
    rangeRequests,
    errorCaching: [...errorClassOf].flatMap((id, i) => (id < 0 ? [] : [{ status: 500 + i, edge: contentCaching.table.get(id, 'edge') }])),
    ...(timelineFigures ? { timeline: timelineFigures } : {}),
    events: simulation.eventsProcessed,
  };
}

function requireRecording(recording: RecordedTraffic | undefined, file: string): RecordedTraffic {
  if (recording === undefined) throw new Error(`content.recorded (${file}) must be read before the run: pass loadScenarioRecording's result as options.recording`);
  return recording;
}

/**
 * The multi-class catalogue, with ids reserved for the objects churn adds over the run.
 * The run's length in time is known only for a duration run; for a request count it is
 * estimated generously (a diurnal trough at the start stretches it), since running out of
 * reserved ids stops the run.
 */
function buildClassCatalogue(classes: readonly ContentClass[], scenario: Scenario, requestLimit: number, horizonMs: number, streams: RandomStreams): ClassCatalogue {
  const byCount = requestLimit === Infinity ? Infinity : (3 * requestLimit * 1000) / scenario.traffic.rate + 60_000;
  const estimatedMs = Math.min(horizonMs, byCount);
  const reservedIds = classes.map((klass) => churnReservation(klass.churn, klass.objects, estimatedMs));
  return new ClassCatalogue(classes, streams, { framework: scenario.deployment.framework, reservedIds });
}

/** A cache node's name and region; a PoP's place on the map and its uplink (model pops). */
interface NodePlace {
  name: string;
  region?: Region;
  latitude?: number;
  longitude?: number;
  uplinkBitsPerSecond?: number;
}

const isRegion = (name: string): name is Region => (REGIONS as readonly string[]).includes(name);

/** The caches and the network a scenario's topology model gives. */
interface Network {
  readonly network: FlowNetwork;
  /** The flow's layers without the browser: edge, regional (with a tier), origin. */
  readonly layerNames: readonly string[];
  readonly edges: readonly SharedCacheNode[];
  readonly edgeNodes: readonly NodePlace[];
  readonly regionals: readonly SharedCacheNode[];
  readonly regionalNodes: readonly NodePlace[];
  /** Whether each edge sees independent requests for the whole catalogue (the theory's assumption). */
  readonly theoryApplies: boolean;
  /** Where clients are, with the demand of each place: the workload's sources and time zones. */
  readonly places: ClientPlaces;
}

/**
 * The client population of `traffic.clients`: who asks (new or returning, device, AVIF), the
 * cache keys that gives (variants decided by the policy engine per class and file type,
 * spec 4.4/4.5) and the media sessions' 5 MB chunks (4.8).
 */
function buildClientTraffic(
  scenario: Scenario,
  settings: RequestAttributesSettings,
  catalogue: ObjectCatalogue,
  classCatalogue: ClassCatalogue | undefined,
  recording: RecordedTraffic | undefined,
  streams: RandomStreams,
): ClientTraffic {
  const traits = classCatalogue
    ? classObjectTraits(classCatalogue, scenario.content.classes ?? [], scenario.deployment.framework, settings.media.minBytes)
    : recording
      ? recordedObjectTraits(recording.urls)
      : // One class at CATALOGUE_OBJECT_URL: an extension-less path has no variants; it declares no ranges.
        { variantMaskOf: null, rangesOf: new Uint8Array(catalogue.size) };
  const keys = new RequestKeys({ objectSizes: catalogue.objectSizes, variantMaskOf: traits.variantMaskOf, chunkedOf: traits.rangesOf });
  const mobileShares = scenario.topology.model === 'pops' ? scenario.topology.clients.mobileShare : DEFAULT_MOBILE_SHARES;
  const sampler = new RequestAttributeSampler(
    requestAttributeSpec(settings, mobileShares),
    { objectSizes: catalogue.objectSizes, pick: (u) => catalogue.pick(u), rangesOf: traits.rangesOf },
    streams,
    REGIONS,
  );
  return new ClientTraffic(sampler, keys, settings.media.windowIntervalMs);
}

/** A cache node: the policy's store over node-local key ids, so memory follows what each node holds. */
function cacheNode(policy: OnlineCachePolicyName, capacity: number, id: number): SharedCacheNode {
  return new SharedCacheNode(new SparseKeyStore(createCacheStore(policy, { capacity })), id);
}

function buildNetwork(scenario: Scenario, streams: RandomStreams): Network {
  const { topology } = scenario;
  if (topology.model === 'pops') {
    const latency = new TopologyLatencyModel(buildTopology(topologySpecOf(topology, scenario.traffic.regions)), streams);
    const { pops, regionalTier } = latency.topology;
    const regionalSites = regionalTier.enabled ? regionalTier.sites : [];
    return {
      network: new TopologyNetwork(latency),
      layerNames: regionalTier.enabled ? ['edge', 'regional', 'origin'] : ['edge', 'origin'],
      edges: pops.map((_, p) => cacheNode(scenario.edge.policy, scenario.edge.capacity, p)),
      edgeNodes: pops.map((pop) => ({ name: pop.code, region: pop.region, latitude: pop.lat, longitude: pop.lon, uplinkBitsPerSecond: DEFAULT_UPLINK_BITS_PER_SECOND[pop.sizeClass] })),
      regionals: regionalSites.map((_, s) => cacheNode(scenario.regional.policy, scenario.regional.capacity, pops.length + s)),
      regionalNodes: regionalSites.map((site) => ({ name: site.code, region: site.region })),
      theoryApplies: false,
      places: latency.topology.clients,
    };
  }
  const latency = new RegionLatencyModel(
    {
      regionNames: REGIONS,
      clientToEdgeMedianMs: REGIONS.map((region) => topology.clientToEdge[region]),
      jitterSigma: topology.jitter,
      originLatencyMs: topology.originLatencyMs,
      edgeSites: topology.edgeSites,
    },
    streams.stream('topology.latency'),
  );
  return {
    network: new RegionNetwork(latency),
    layerNames: ['edge', 'origin'],
    edges: latency.edgeNames.map((_, e) => cacheNode(scenario.edge.policy, scenario.edge.capacity, e)),
    edgeNodes: latency.edgeNames.map((name) => (isRegion(name) ? { name, region: name } : { name })),
    regionals: [],
    regionalNodes: [],
    theoryApplies: true,
    // The regions model has no map, but clients still have a local time: the same metros give it.
    places: buildClientPlaces(loadClientCities(), scenario.traffic.regions),
  };
}

/**
 * The origin's error responses as the policy engine decides them at each layer (spec 7.1: a
 * 500 without explicit freshness is cached for 5 s), one class per status an error burst
 * sends, compiled into the content's table. Index: status − 500.
 */
function compileErrorClasses(caching: ContentCaching, incidents: readonly Incident[]): Int32Array {
  const classOf = new Int32Array(100).fill(-1);
  for (const incident of incidents) {
    if (incident.kind !== 'error-burst' || classOf[incident.status - 500] >= 0) continue;
    classOf[incident.status - 500] = caching.table.add({ url: CATALOGUE_OBJECT_URL, status: incident.status, headers: {} });
  }
  return classOf;
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
function edgeTheory(scenario: Scenario, catalogue: Catalogue, caching: ClassCaching, runMs: number): EdgeTheory | undefined {
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

