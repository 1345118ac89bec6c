import type { LayerActivity, LayeredFlowOptions } from '../cdn/layeredFlow.js';
import type { Scenario, Warmup } from '../scenario/schema.js';
import { RandomStreams } from '../sim/random.js';
import { Simulation } from '../sim/simulation.js';
import type { RecordedTraffic } from '../recorded/realTraffic/trafficCatalogue.js';
import { RecordedWorkload } from '../recorded/recordedWorkload.js';
import { ShapedWorkload } from '../workload/shapedWorkload.js';
import { BrowserCaches } from '../cdn/browserCaches.js';
import { runLayers } from '../cdn/runLayers.js';
import { catalogueFacts, modelCatalogueFacts, type ClassCatalogueFacts } from './catalogueFacts.js';
import { compileErrorClasses } from './contentCaching.js';
import { edgeTheory } from './edgeTheory.js';
import { buildOriginTimeline } from '../cdn/originTimeline.js';
import { buildRunContent } from './runContent.js';
import { buildRunNetwork } from './runNetwork.js';
import { RunRecorder } from './runRecorder.js';
import type { RunResult } from './runResult.js';
import { cacheWarmupFor } from './cacheWarmup.js';
import { fillKeyOf } from './fillKeys.js';
import { RunLifecycle, type RunProgress } from './runLifecycle.js';
import { newTimeline, withCapacity } from './runTimeline.js';
import { newAdaptiveController } from './adaptiveRun.js';
import { runLength } from './runLength.js';
import { runCurves, setUpCurves } from './runCurves.js';
import { warmModelStacks } from './modelWarmup.js';

export type { CdnActivity, ClassChurn, ClassFigures, EdgeTheory, NodeState, RecordingFacts, RunResult } from './runResult.js';

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

export type { RunProgress } from './runLifecycle.js';

export interface RunOptions extends RunOverrides, RunInputs {
  onProgress?: (progress: RunProgress) => void;
  /** Events between progress reports. */
  progressEvery?: number;
  /** false: no time series and no per-PoP capacity (the bench measures what recording them costs). */
  timeline?: boolean;
}

/**
 * Runs one scenario: builds the catalogue, the workload, the latency model and the
 * caches from the scenario and the seed, drives them with the event kernel until the
 * request count or the simulated horizon, and returns the metrics of the measured part.
 * In order: the inputs (content, network, workload), their wiring to one RunLifecycle,
 * its phases (docs/run-lifecycle.md), then the figures.
 */
export function runScenario(scenario: Scenario, options: RunOptions = {}): RunResult {
  const seed = options.seed ?? scenario.seed;
  const { requestLimit: scenarioRequestLimit, horizonMs } = runLength(scenario, options);
  // A replayed recording is as long as it is: the request count (and a warm-up share of it) never exceeds it.
  const requestLimit =
    scenario.content.recorded?.use === 'replay' && options.recording ? Math.min(scenarioRequestLimit, options.recording.requestObjects.length) : scenarioRequestLimit;
  if (requestLimit === Infinity && horizonMs === Infinity) throw new Error('a run needs a request count or a duration');

  const streams = new RandomStreams(seed);
  const recorded = scenario.content.recorded;
  const recording = recorded === undefined ? undefined : requireRecording(options.recording, recorded.file);
  // The network first: a model class's streams are per PoP (streams are named, so the order draws nothing differently).
  const network = buildRunNetwork(scenario, streams);
  const content = buildRunContent(scenario, recording, requestLimit, horizonMs, streams, network);
  const { catalogue, contentCaching, clients } = content;
  const browsers = clients === null ? null : new BrowserCaches(clients.sampler.population.slots, clients.sampler.population.recentObjects);
  // The run's layers, worked out here once and read by the flow, the recorder, the timeline, the controller and the summary.
  const layers = runLayers(browsers !== null, network.regionals.length > 0);
  const replay = recording !== undefined && recorded?.use === 'replay';
  const workload = replay
    ? new RecordedWorkload({ traffic: recording, places: network.places, speed: recorded.speed }, catalogue, streams)
    : new ShapedWorkload({ ratePerSecond: scenario.traffic.rate, shape: scenario.traffic, places: network.places }, catalogue, streams, clients, content.models);

  const simulation = new Simulation();
  const curves = setUpCurves(scenario, network);
  const { origin, churn } = buildOriginTimeline(scenario, content, workload instanceof ShapedWorkload ? workload : null, network.network, simulation, streams);
  const classCount = contentCaching.classes.length;
  const startingCatalogue = catalogueFacts(catalogue, content.classCatalogue, classCount);
  const recorder = new RunRecorder({
    layers,
    edgeCount: network.edges.length,
    regionalCount: network.regionals.length,
    classCount,
    incidents: scenario.incidents,
  });
  const errorClassOf = compileErrorClasses(contentCaching, scenario.incidents);
  // spec 1.2 item 6: null unless the scenario (or its strategy) turns the controller on.
  const adaptive = newAdaptiveController(scenario, simulation, contentCaching, layers, content.queryKeys);
  // One object for the flow and the cache-only warm-up: both act on the same wiring (FlowWiring).
  const flowOptions: Omit<LayeredFlowOptions, 'onComplete'> = {
    simulation,
    network: network.network,
    edges: network.edges,
    regionals: network.regionals,
    decisions: contentCaching.table,
    errorClassOf,
    classOf: catalogue.classOf,
    origin,
    browsers,
    coalescing: scenario.cdn.coalescing,
    validators: scenario.cdn.validators,
    cdnEnabled: scenario.deployment.cdn,
    purgeDelayMs: scenario.cdn.purgeDelayMs,
    ...(curves === null ? {} : { curves: curves.layers }),
    layers,
  };
  const lifecycle = new RunLifecycle({
    simulation,
    workload,
    flow: flowOptions,
    recorder,
    timeline: options.timeline === false ? null : (originActivity) => newTimeline(scenario, layers, recorder.metrics, network.edges, originActivity),
    cacheWarmup: cacheWarmupFor(scenario.run.warmup, flowOptions, content.models?.startingObjects() ?? catalogue.size, () => ({
      catalogue,
      keyOf: fillKeyOf(clients?.keys ?? null),
      // Its own stream: the fill draws nothing from the workload's (docs/warmup.md, "A stationary start").
      stream: streams.stream('warmup.fill'),
      // The curves' recorders start from the whole stationary order; its keys past the caches' capacity from a stream of their own.
      curves: curves === null ? null : { layers: curves.layers, stream: streams.stream('warmup.fill.curves') },
      // An edge no client reaches stays empty: its steady state (docs/warmup.md, "A stationary start").
      routedEdges: network.routedEdges,
    })),
    adaptive,
    queryKeys: content.queryKeys,
    bounds: {
      requestLimit,
      horizonMs,
      ...resolveWarmup(scenario.run.warmup, requestLimit, horizonMs),
      limitIsRecordingEnd: replay && requestLimit < scenarioRequestLimit,
    },
  });

  // A model class has no catalogue at the start, only the objects its streams create: count
  // those, by the run's end (docs/traffic-models.md), where another class counts its starting one.
  const modelCatalogueOf = (c: number): ClassCatalogueFacts => {
    const m = content.models?.modelIndexOf(c) ?? -1;
    const facts = m < 0 ? undefined : content.models?.facts()[m];
    if (facts === undefined || content.classCatalogue === undefined) return startingCatalogue[c];
    return modelCatalogueFacts(catalogue, content.classCatalogue.classStart[c], facts.createdObjects);
  };
  // A model class's own warm-up: each PoP's initial stack through the caches before anything else (docs/traffic-models.md).
  if (content.models !== null) warmModelStacks(content.models, flowOptions, network, curves !== null);
  const { stopReason, simulatedMs, events, timeline: timelineFigures, held } = lifecycle.run(
    // What the caches hold and the churn are read as the last request is back, before the
    // background revalidations still on their way finish (they would store what they fetch).
    (end) => ({
      edges: withCapacity(recorder.edgeStates(network.edges, network.edgeNodes), end.timeline),
      regionals: recorder.regionalStates(network.regionals, network.regionalNodes),
      classes: recorder.classFigures(classCount, (c) => ({
        ...modelCatalogueOf(c),
        newObjects: churn?.newObjectCount[c] ?? 0,
        oneHitWonders: churn?.oneHitWonderCount[c] ?? 0,
        updates: churn?.updateCount[c] ?? 0,
      })),
      incidents: recorder.incidentFigures(end.simulatedMs, (fromMs, toMs) => lifecycle.flow.originArrivals.between(fromMs, toMs)),
    }),
    options.onProgress,
    options.progressEvery,
  );
  const { edges, regionals, classes, incidents } = held;
  const flow = lifecycle.flow;

  const activity: Record<string, LayerActivity> = Object.fromEntries(layers.nodeNames.map((name, kind) => [name, flow.layerActivity[kind]]));
  return {
    scenario,
    seed,
    totalRequests: lifecycle.requests,
    warmupRequests: lifecycle.warmupRequests,
    warmup: lifecycle.warmupFacts(),
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
    metrics: recorder.metrics,
    layers,
    ...(recorder.transfer.count > 0 ? { transfer: recorder.transfer.summary() } : {}),
    edges,
    regionals,
    contentCaching,
    classes,
    theory: network.theoryApplies && content.singleClass ? edgeTheory(scenario, content.singleClass, contentCaching.classes[0], simulatedMs) : undefined,
    cdn: { coalescing: scenario.cdn.coalescing, validators: scenario.cdn.validators, layers: activity, origin: { ...flow.originActivity }, outcomes: recorder.outcomes.figures() },
    incidents,
    rangeRequests: lifecycle.rangeRequests,
    errorCaching: [...errorClassOf].flatMap((id, i) => (id < 0 ? [] : [{ status: 500 + i, edge: contentCaching.table.get(id, 'edge') }])),
    ...(timelineFigures ? { timeline: timelineFigures } : {}),
    upstream: flow.upstreamLoad.figures(lifecycle.warmupFacts().simulatedMs, simulatedMs),
    ...(adaptive ? { adaptive: adaptive.figures() } : {}),
    ...(curves === null ? {} : { curves: runCurves(curves, network) }),
    ...(content.models === null ? {} : { trafficModels: content.models.facts() }),
    events,
  };
}

function requireRecording(recording: RecordedTraffic | undefined, file: string): RecordedTraffic {
  if (recording === undefined) throw new Error(`content.recorded (${file}) must be read before the run: pass loadScenarioRecording's result as options.recording`);
  return recording;
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
    case 'caches':
      // Before the run, by the caches alone (src/experiment/cacheWarmup.ts): every request of the run is measured.
      return { warmupCount: 0, warmupUntilMs: -Infinity };
  }
}
