import type { Scenario } from '../scenario/schema.js';
import type { RandomStreams } from '../sim/random.js';
import { DEFAULT_MOBILE_SHARES } from '../topology/clients.js';
import { REGIONS } from '../topology/regions.js';
import { Catalogue } from '../workload/catalogue.js';
import { ClassCatalogue, classCatalogueObjects } from '../workload/content/classCatalogue.js';
import { churnReservation } from '../workload/content/churn.js';
import type { ContentClass } from '../workload/content/contentClasses.js';
import type { ObjectCatalogue } from '../workload/objectCatalogue.js';
import { recordedCatalogue } from '../recorded/realTraffic/recordedCatalogue.js';
import type { RecordedTraffic } from '../recorded/realTraffic/trafficCatalogue.js';
import { ClientTraffic } from '../workload/requests/clientTraffic.js';
import { RequestAttributeSampler } from '../workload/requests/requestAttributes.js';
import { requestAttributeSpec, type RequestAttributesSettings } from '../workload/requests/requestAttributesSchema.js';
import { RequestKeys } from '../workload/requests/requestKeys.js';
import { QueryKeys } from '../workload/requests/queryKeys.js';
import { compileContentCaching, scenarioDeployment, type ContentCaching } from './contentCaching.js';
import { MAX_MODEL_IDS, ModelTraffic, defaultDepthCaps, modelIdReservation, type ModelClassInput } from '../workload/trafficModels/modelTraffic.js';
import { loadTrafficModel } from '../workload/trafficModels/trafficModel.js';
import { UserError } from '../userError.js';
import type { RunNetwork } from './runNetwork.js';
import { compileRecordedCaching } from './recordedCaching.js';
import { ClassObjectTraits, recordedObjectTraits } from './requestVariants.js';

/**
 * What a run serves: its objects (one catalogue of three kinds: a recording's URLs, content
 * classes, or a single Zipf class), what the policy engine decides for each class, and who
 * asks for them (the client population of `traffic.clients`, or none).
 */
export interface RunContent {
  readonly catalogue: ObjectCatalogue;
  /** content.classes: the classes' catalogue, whose churn adds objects and versions over the run. */
  readonly classCatalogue?: ClassCatalogue;
  /** The single-class catalogue (neither classes nor a recording): the one theory can model. */
  readonly singleClass?: Catalogue;
  readonly contentCaching: ContentCaching;
  /** Browsers, variants and chunks; null without `traffic.clients`. */
  readonly clients: ClientTraffic | null;
  /** Query strings of classes with `queries` (spec 4.3.1) as keys; null when no class has any. */
  readonly queryKeys: QueryKeys | null;
  /** The class objects' request traits under `traffic.clients` (churn's onUpdate keeps them exact); absent otherwise. */
  readonly classTraits?: ClassObjectTraits;
  /** Classes with a traffic model: their per-PoP streams (docs/traffic-models.md); null when no class has one. */
  readonly models: ModelTraffic | null;
}

export function buildRunContent(scenario: Scenario, recording: RecordedTraffic | undefined, requestLimit: number, horizonMs: number, streams: RandomStreams, network: RunNetwork): RunContent {
  const recorded = scenario.content.recorded;
  const recordedCaching = recording === undefined ? undefined : compileRecordedCaching(recording, scenarioDeployment(scenario));
  const classes = scenario.content.classes;
  const modelInputs = classes === undefined ? [] : modelClassInputs(classes);
  const modelEdges = modelInputs.length === 0 ? null : edgesWithTraffic(network);
  const modelIds = modelEdges === null ? [] : modelReservations(modelInputs, modelEdges.busyCaps, scenario, requestLimit, horizonMs);
  const classCatalogue = classes === undefined ? undefined : buildClassCatalogue(classes, scenario, requestLimit, horizonMs, streams, modelInputs, modelIds);
  const models =
    classCatalogue === undefined || modelEdges === null
      ? null
      : new ModelTraffic(
          classCatalogue,
          modelInputs,
          network.homeEdgeOfPlace,
          modelEdges.demand,
          modelEdges.depthCaps,
          network.edgeNodes.map((node) => node.name),
          streams,
        );
  const singleClass = recorded === undefined && classCatalogue === undefined ? new Catalogue(scenario.content, streams.stream('content.sizes')) : undefined;
  const catalogue: ObjectCatalogue =
    recording && recorded && recordedCaching
      ? recordedCatalogue(recording, recorded.popularity, recordedCaching.classOf)
      : classCatalogue
        ? classCatalogueObjects(classCatalogue)
        : (singleClass as Catalogue);
  const clientSettings = scenario.traffic.clients;
  const classTraits = clientSettings && classCatalogue ? new ClassObjectTraits(classCatalogue, classes ?? [], scenario.deployment.framework, clientSettings.media.minBytes) : undefined;
  const clients = clientSettings === undefined ? null : buildClientTraffic(scenario, clientSettings, catalogue, classTraits, recording, streams);
  return {
    catalogue,
    ...(classCatalogue ? { classCatalogue } : {}),
    ...(singleClass ? { singleClass } : {}),
    ...(classTraits ? { classTraits } : {}),
    contentCaching: recordedCaching?.caching ?? compileContentCaching(scenario),
    clients,
    queryKeys: classes !== undefined && classCatalogue ? buildQueryKeys(classes, classCatalogue, clients?.keys.keyCount ?? catalogue.size, streams) : null,
    models,
  };
}

/** The classes with a traffic model, their models read (cached per folder; the scenario loader checked them). */
function modelClassInputs(classes: readonly ContentClass[]): ModelClassInput[] {
  const total = classes.reduce((sum, klass) => sum + klass.share, 0);
  return classes.flatMap((klass, classIndex): ModelClassInput[] =>
    klass.traffic === undefined
      ? []
      : [{ classIndex, name: klass.name, share: klass.share / total, traffic: klass.traffic, model: loadTrafficModel(klass.traffic.folder ?? klass.traffic.model) }],
  );
}

/** Each edge's share of the clients' demand: the places routed to it (their nearest PoP). */
export function edgeDemand(network: RunNetwork): Float64Array {
  const demand = new Float64Array(network.edges.length);
  network.places.demand.forEach((share, place) => {
    demand[network.homeEdgeOfPlace[place]] += share;
  });
  return demand;
}

/** Each edge's default stack depth cap for a model class (defaultDepthCaps), from its demand. */
export function edgeDepthCaps(network: RunNetwork, demand: Float64Array): number[] {
  return defaultDepthCaps(
    network.edges.map((edge) => edge.store.capacity),
    network.edges.map((_, e) => network.network.regionalOf(e)),
    network.regionals.map((regional) => regional.store.capacity),
    Array.from(demand),
  );
}

/** Each edge's default stack depth cap, and those of the edges some client place is routed to (the PoPs with a stream). */
function edgesWithTraffic(network: RunNetwork): { demand: Float64Array; depthCaps: number[]; busyCaps: number[] } {
  const demand = edgeDemand(network);
  const depthCaps = edgeDepthCaps(network, demand);
  return { demand, depthCaps, busyCaps: depthCaps.filter((_, e) => demand[e] > 0) };
}

/** Warm-up requests a steady warm-up is reserved ids for with model classes (docs/traffic-models.md). */
const STEADY_MODEL_WARMUP_REQUESTS = 20_000_000;

/** Ids per model class for a run of this length, warm-up included (modelIdReservation); refused above MAX_MODEL_IDS in all. */
function modelReservations(inputs: readonly ModelClassInput[], capacities: readonly number[], scenario: Scenario, requestLimit: number, horizonMs: number): number[] {
  const measured = requestLimit !== Infinity ? requestLimit : (3 * scenario.traffic.rate * horizonMs) / 1000;
  const warmup = scenario.run.warmup;
  const warm =
    warmup.kind === 'caches'
      ? warmup.length.kind === 'requests'
        ? warmup.length.requests
        : warmup.length.kind === 'steady'
          ? // The stacks start each PoP in the model's steady state, so the rule stops early; its 200 M cap would reserve 60 M ids.
            Math.min(warmup.length.maxRequests, STEADY_MODEL_WARMUP_REQUESTS)
          : (3 * scenario.traffic.rate * warmup.length.ms) / 1000
      : warmup.kind === 'requests'
        ? warmup.requests
        : warmup.kind === 'time'
          ? (3 * scenario.traffic.rate * warmup.ms) / 1000
          : 0;
  const ids = inputs.map((input) => modelIdReservation(input, capacities, measured + warm));
  const total = ids.reduce((sum, n) => sum + n, 0);
  if (total > MAX_MODEL_IDS) {
    throw new UserError(
      `the model classes (${inputs.map((input) => input.name).join(', ')}) would need up to ${total} object ids over ${capacities.length} PoPs with traffic and ${Math.round(measured + warm)} requests, more than the ${MAX_MODEL_IDS} a run holds: shorten the run or its warm-up, or lower depthCap (docs/traffic-models.md)`,
    );
  }
  return ids;
}

/** Query keys for the classes with `queries`, numbered after the run's other `baseKeyCount` keys; null when no class has queries. */
function buildQueryKeys(classes: readonly ContentClass[], catalogue: ClassCatalogue, baseKeyCount: number, streams: RandomStreams): QueryKeys | null {
  if (classes.every((klass) => klass.queries === undefined)) return null;
  return new QueryKeys(classes, catalogue.classOfId, baseKeyCount, streams.stream('workload.queries'));
}

/**
 * The multi-class catalogue, with ids reserved for the objects churn adds over the run.
 * The run's length in time is known only for a duration run; for a request count it is
 * estimated generously (a diurnal trough at the start stretches it), since running out of
 * reserved ids stops the run.
 */
function buildClassCatalogue(
  classes: readonly ContentClass[],
  scenario: Scenario,
  requestLimit: number,
  horizonMs: number,
  streams: RandomStreams,
  models: readonly ModelClassInput[],
  modelIds: readonly number[],
): ClassCatalogue {
  const byCount = requestLimit === Infinity ? Infinity : (3 * requestLimit * 1000) / scenario.traffic.rate + 60_000;
  // Churn runs on the same clock through a cache-only warm-up, which comes before the run's own length.
  const estimatedMs = Math.min(horizonMs, byCount) + cacheWarmupMs(scenario);
  // Deploys of a class with `updates.onDeploy` and new URLs take fresh ids too (churn.deployClass).
  const deploysOf = (name: string): number => scenario.incidents.filter((incident) => incident.kind === 'deploy' && (incident.classes.length === 0 || incident.classes.includes(name))).length;
  const reservedIds = classes.map((klass) => churnReservation(klass.churn, klass.objects, estimatedMs, deploysOf(klass.name)));
  // A model class's ids are its objects as its streams create them (docs/traffic-models.md).
  models.forEach((model, m) => (reservedIds[model.classIndex] = modelIds[m]));
  // Their sizes come from the model as objects are created, so none are drawn ahead. Range
  // requests (a `media` class such as v's) do not need them either: they come only with
  // traffic.clients, which a model class refuses (scenario/load.ts), and ClassObjectTraits,
  // which decides them from the sizes at the start, refuses such a class.
  const sizesSetOnCreation = classes.map(() => false);
  models.forEach((model) => (sizesSetOnCreation[model.classIndex] = true));
  return new ClassCatalogue(classes, streams, { framework: scenario.deployment.framework, reservedIds, sizesSetOnCreation });
}

/**
 * Simulated time a cache-only warm-up (docs/warmup.md) adds before the measured run,
 * estimated as generously as the run's own length: its time, or its request count (for
 * `steady`, its most) at the mean rate.
 */
function cacheWarmupMs(scenario: Scenario): number {
  const warmup = scenario.run.warmup;
  if (warmup.kind !== 'caches') return 0;
  if (warmup.length.kind === 'time') return warmup.length.ms;
  const requests = warmup.length.kind === 'requests' ? warmup.length.requests : warmup.length.maxRequests;
  return (3 * requests * 1000) / scenario.traffic.rate + 60_000;
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
  classTraits: ClassObjectTraits | undefined,
  recording: RecordedTraffic | undefined,
  streams: RandomStreams,
): ClientTraffic {
  const traits =
    classTraits ??
    (recording
      ? recordedObjectTraits(recording.urls)
      : // One class at CATALOGUE_OBJECT_URL: an extension-less path has no variants; it declares no ranges.
        { variantMaskOf: null, rangesOf: new Uint8Array(catalogue.size) });
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
