import type { Scenario } from '../scenario/schema.js';
import { RandomStreams } from '../sim/random.js';
import { Simulation } from '../sim/simulation.js';
import { UserError } from '../userError.js';
import { ShapedWorkload } from '../workload/shapedWorkload.js';
import type { ClientRequest } from '../workload/request.js';
import { buildRunContent } from './runContent.js';
import { buildRunNetwork } from './runNetwork.js';

/**
 * A model class's requests as a run of its scenario generates them, without the CDN
 * (docs/traffic-models.md, "The CDN's stream as a trace"): the same network, content and
 * ShapedWorkload as runScenario builds, from the same seed, so the same named random
 * streams draw the same requests. First every PoP's initial stack (the model's warm-up, at
 * time 0, interleaved across PoPs as warmModelStacks applies it to the caches), then the
 * arrivals in time order, each from its client place's PoP stream. Misrouting
 * (`routing.misrouteProbability`) is the flow's and not applied: a request's PoP is the
 * one whose stream drew it.
 */
export interface ModelStreamOptions {
  readonly scenario: Scenario;
  /** The content class with a model (checked by the caller). */
  readonly classIndex: number;
  /** Only this edge's requests; −1: every PoP's. */
  readonly edge: number;
  /** Requests to keep after the stacks. */
  readonly requests: number;
  /** Arrivals of all classes and PoPs the run is sized for (its model ids are reserved for this many, as a run of that length). */
  readonly runRequests: number;
  readonly seed: number;
  /** Now and then: the requests kept so far after the stacks. */
  readonly progress?: (kept: number) => void;
}

/** The kept requests, in order, in typed arrays (20 bytes and a PoP index each). */
export interface ModelStream {
  readonly ids: Int32Array;
  readonly bytes: Float64Array;
  readonly timesSeconds: Float64Array;
  /** Per request, the index of its PoP in `popNames`. */
  readonly pops: Uint16Array;
  /** The run's edges by index (PoP codes, or region names for `regions`). */
  readonly popNames: readonly string[];
  /** The first this many requests are the stacks' (the model's warm-up). */
  readonly warmupRequests: number;
  readonly requests: number;
  /** Arrivals the workload made to give them (all classes, all PoPs). */
  readonly arrivals: number;
}

/** Events per call of the kernel between progress reports. */
const PROGRESS_EVENTS = 1 << 16;

export function generateModelStream(options: ModelStreamOptions): ModelStream {
  const { scenario, classIndex, edge: onlyEdge } = options;
  // The run's own warm-up is part of the arrivals here; the ids are reserved for `runRequests` arrivals in all.
  const sized: Scenario = { ...scenario, run: { ...scenario.run, warmup: { kind: 'requests', requests: 0 } } };
  const streams = new RandomStreams(options.seed);
  const network = buildRunNetwork(sized, streams);
  const content = buildRunContent(sized, undefined, options.runRequests, Infinity, streams, network);
  const models = content.models;
  const classCatalogue = content.classCatalogue;
  if (models === null || classCatalogue === undefined) throw new Error('generateModelStream: the scenario has no model class');
  const workload = new ShapedWorkload({ ratePerSecond: sized.traffic.rate, shape: sized.traffic, places: network.places }, content.catalogue, streams, null, models);
  const classOfId = classCatalogue.classOfId;
  const homeEdgeOfPlace = network.homeEdgeOfPlace;

  const m = models.modelIndexOf(classIndex);
  let stackRequests = 0;
  for (let e = 0; e < models.edgeCount; e++) {
    const generator = models.generators[m * models.edgeCount + e];
    if (generator !== null && (onlyEdge < 0 || e === onlyEdge)) stackRequests += generator.warmupRequests;
  }
  const total = stackRequests + options.requests;
  const ids = new Int32Array(total);
  const bytes = new Float64Array(total);
  const timesSeconds = new Float64Array(total);
  const pops = new Uint16Array(total);
  let kept = 0;
  models.warmStacks((e, objectId, sizeBytes) => {
    if (classOfId[objectId] !== classIndex || (onlyEdge >= 0 && e !== onlyEdge)) return;
    ids[kept] = objectId;
    bytes[kept] = sizeBytes;
    pops[kept] = e;
    kept++;
  });

  const simulation = new Simulation();
  let arrivals = 0;
  workload.attach(simulation, (request: ClientRequest) => {
    arrivals++;
    const objectId = request.objectId;
    if (classOfId[objectId] !== classIndex) return;
    const e = homeEdgeOfPlace[request.place];
    if (onlyEdge >= 0 && e !== onlyEdge) return;
    ids[kept] = objectId;
    bytes[kept] = request.objectBytes;
    timesSeconds[kept] = request.timeMs / 1000;
    pops[kept] = e;
    if (++kept === total) simulation.stop();
  });
  for (;;) {
    const outcome = simulation.run({ maxEvents: PROGRESS_EVENTS });
    options.progress?.(kept - stackRequests);
    if (outcome === 'stopped') break;
    if (outcome !== 'event-budget') {
      throw new UserError(`${scenario.name}: its traffic ended after ${kept - stackRequests} of the ${options.requests} requests asked for (the arrival processes have no more)`);
    }
  }
  return { ids, bytes, timesSeconds, pops, popNames: network.edgeNodes.map((node) => node.name), warmupRequests: stackRequests, requests: options.requests, arrivals };
}
