import { LayeredFlow, type CompletedRequest, type LayerActivity } from '../cdn/layeredFlow.js';
import type { Scenario, Warmup } from '../scenario/schema.js';
import { RandomStreams } from '../sim/random.js';
import { Simulation } from '../sim/simulation.js';
import type { RecordedTraffic } from '../workload/realTraffic/trafficCatalogue.js';
import { RecordedWorkload } from '../workload/recordedWorkload.js';
import type { ClientRequest } from '../workload/request.js';
import { ShapedWorkload } from '../workload/shapedWorkload.js';
import { BrowserCaches } from '../cdn/browserCaches.js';
import { catalogueFacts } from './catalogueFacts.js';
import { compileErrorClasses } from './contentCaching.js';
import { edgeTheory } from './edgeTheory.js';
import { buildOriginTimeline } from './originTimeline.js';
import { buildRunContent } from './runContent.js';
import { buildRunNetwork } from './runNetwork.js';
import { RunRecorder } from './runRecorder.js';
import type { RunResult } from './runResult.js';
import { cacheWarmupFor, flowWarmupFacts } from './cacheWarmup.js';
import { newTimeline, withCapacity } from './runTimeline.js';
import { newAdaptiveController } from './adaptiveRun.js';
import { runLength } from './runLength.js';

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

/**
 * Runs one scenario: builds the catalogue, the workload, the latency model and the
 * caches from the scenario and the seed, drives them with the event kernel until the
 * request count or the simulated horizon, and returns the metrics of the measured part.
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
  const content = buildRunContent(scenario, recording, requestLimit, horizonMs, streams);
  const { catalogue, contentCaching, clients } = content;
  const network = buildRunNetwork(scenario, streams);
  const browsers = clients === null ? null : new BrowserCaches(clients.sampler.population.slots, clients.sampler.population.recentObjects);
  const replay = recording !== undefined && recorded?.use === 'replay';
  const workload = replay
    ? new RecordedWorkload({ traffic: recording, places: network.places, speed: recorded.speed }, catalogue, streams)
    : new ShapedWorkload({ ratePerSecond: scenario.traffic.rate, shape: scenario.traffic, places: network.places }, catalogue, streams, clients);
  const { warmupCount, warmupUntilMs } = resolveWarmup(scenario.run.warmup, requestLimit, horizonMs);

  const simulation = new Simulation();
  const { origin, churn } = buildOriginTimeline(scenario, content, workload instanceof ShapedWorkload ? workload : null, network.network, simulation, streams);
  const classCount = contentCaching.classes.length;
  const startingCatalogue = catalogueFacts(catalogue, content.classCatalogue, classCount);
  const recorder = new RunRecorder({
    layerNames: network.layerNames,
    browserLayer: browsers !== null,
    edgeCount: network.edges.length,
    regionalCount: network.regionals.length,
    classCount,
    incidents: scenario.incidents,
  });
  let measuredFrom = -1;
  let accepting = true;
  const onComplete = (done: CompletedRequest): void => {
    recorder.recordAny(done);
    // The run has ended and the last request in flight is back.
    if (!accepting && flow.requestsInFlight === 0) simulation.stop();
    if (measuredFrom >= 0 && done.seq >= measuredFrom) {
      // The timeline first: it may close an interval, which must not hold this request yet.
      timeline?.record(simulation.nowMs, done);
      recorder.record(done);
    }
  };
  const errorClassOf = compileErrorClasses(contentCaching, scenario.incidents);
  // spec 1.2 item 6: null unless the scenario (or its strategy) turns the controller on.
  const adaptive = newAdaptiveController(scenario, simulation, contentCaching, browsers === null ? network.layerNames : ['browser', ...network.layerNames], content.queryKeys);
  const flow = new LayeredFlow({
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
    onComplete: adaptive === null ? onComplete : adaptive.wrap(onComplete),
  });
  const cacheWarmup = cacheWarmupFor(scenario.run.warmup, { network: network.network, edges: network.edges, regionals: network.regionals, decisions: contentCaching.table, errorClassOf, classOf: catalogue.classOf, origin, browsers, cdnEnabled: scenario.deployment.cdn, purgeDelayMs: scenario.cdn.purgeDelayMs }, catalogue.size);
  let measuredFromMs = 0;
  const timeline = options.timeline === false ? null : newTimeline(scenario, recorder.metrics, network.edges, flow.originActivity);
  let total = 0;
  const rangeRequests = { requests: 0, chunks: 0 };
  const queryKeys = content.queryKeys;
  workload.attach(simulation, (request: ClientRequest) => {
    queryKeys?.keyRequest(request);
    if (!accepting || cacheWarmup?.accept(request)) return;
    const seq = total++;
    if (measuredFrom < 0 && seq >= warmupCount && request.timeMs >= warmupUntilMs) {
      measuredFrom = seq;
      measuredFromMs = request.timeMs;
      flow.measuredFromSeq = seq;
      timeline?.start(request.timeMs);
    }
    if (measuredFrom >= 0 && request.firstChunk >= 0) {
      rangeRequests.requests++;
      rangeRequests.chunks += request.pieces;
    }
    flow.serve(request, seq);
    if (total >= requestLimit) {
      accepting = false;
      simulation.closeArrivals();
      simulation.stop();
    }
  });

  const progressEvery = options.progressEvery ?? 100_000;
  // A cache-only warm-up comes before the run: the run's duration counts from its end.
  const warmedMs = cacheWarmup?.run(simulation, (simulatedMs) => options.onProgress?.({ simulatedMs, requests: 0, fraction: 0 })) ?? 0;
  adaptive?.start(warmedMs);
  let stopReason: RunResult['stopReason'] = 'duration';
  for (;;) {
    const result = simulation.run({ untilMs: warmedMs + horizonMs, maxEvents: progressEvery });
    options.onProgress?.({
      simulatedMs: simulation.nowMs,
      requests: total,
      fraction: Math.min(1, Math.max(total / requestLimit, (simulation.nowMs - warmedMs) / horizonMs)),
    });
    if (result === 'event-budget') continue;
    const recordingEnded = replay && total === recording.requestObjects.length && total < scenarioRequestLimit;
    stopReason = recordingEnded ? 'recording' : result === 'stopped' ? 'requests' : 'duration';
    break;
  }
  const simulatedMs = simulation.nowMs;
  timeline?.endRun(simulatedMs);
  adaptive?.stop();
  // Requests sent before the end are answered: the clock runs on, taking no new ones, until the last is back.
  accepting = false;
  simulation.closeArrivals();
  while (flow.requestsInFlight > 0) {
    if (simulation.run() !== 'stopped') break;
  }
  const timelineFigures = timeline?.finish(simulation.nowMs);
  // What the caches hold and the churn are read as the last request is back, before the
  // background revalidations still on their way finish (they would store what they fetch).
  const edges = withCapacity(recorder.edgeStates(network.edges, network.edgeNodes), timelineFigures);
  const regionals = recorder.regionalStates(network.regionals, network.regionalNodes);
  const classes = recorder.classFigures(classCount, (c) => ({
    ...startingCatalogue[c],
    newObjects: churn?.newObjectCount[c] ?? 0,
    oneHitWonders: churn?.oneHitWonderCount[c] ?? 0,
    updates: churn?.updateCount[c] ?? 0,
  }));
  const incidents = recorder.incidentFigures(simulatedMs, (fromMs, toMs) => flow.originArrivals.between(fromMs, toMs));
  const events = simulation.eventsProcessed;
  // docs/origin-accounting.md: the origin requests measured requests caused are all counted,
  // the background revalidations the last ones started included, so the clock runs on until
  // every fetch is back (an event at a time: nothing else is read after this).
  while (flow.fetchesInFlight > 0) {
    if (simulation.run({ maxEvents: 1 }) === 'empty') break;
  }

  const activity: Record<string, LayerActivity> = { edge: flow.layerActivity[0] };
  if (network.regionals.length > 0) activity.regional = flow.layerActivity[1];
  return {
    scenario,
    seed,
    totalRequests: total,
    warmupRequests: measuredFrom < 0 ? total : measuredFrom,
    warmup: cacheWarmup?.facts() ?? flowWarmupFacts(measuredFrom < 0 ? total : measuredFrom, measuredFrom < 0 ? simulatedMs : measuredFromMs),
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
    cacheLayers: network.layerNames.filter((layer) => layer !== 'origin'),
    browserLayer: browsers !== null,
    ...(recorder.transfer.count > 0 ? { transfer: recorder.transfer.summary() } : {}),
    edges,
    regionals,
    contentCaching,
    classes,
    theory: network.theoryApplies && content.singleClass ? edgeTheory(scenario, content.singleClass, contentCaching.classes[0], simulatedMs) : undefined,
    cdn: { coalescing: scenario.cdn.coalescing, validators: scenario.cdn.validators, layers: activity, origin: { ...flow.originActivity }, outcomes: recorder.outcomes.figures() },
    incidents,
    rangeRequests,
    errorCaching: [...errorClassOf].flatMap((id, i) => (id < 0 ? [] : [{ status: 500 + i, edge: contentCaching.table.get(id, 'edge') }])),
    ...(timelineFigures ? { timeline: timelineFigures } : {}),
    upstream: flow.upstreamLoad.figures(),
    ...(adaptive ? { adaptive: adaptive.figures() } : {}),
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
