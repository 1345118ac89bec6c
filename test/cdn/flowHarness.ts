import { createCacheStore } from '../../src/cache/registry.js';
import { BrowserCaches } from '../../src/cdn/browserCaches.js';
import { SparseKeyStore } from '../../src/cache/sparseKeyStore.js';
import type { FlowNetwork } from '../../src/cdn/flowNetwork.js';
import { LayeredFlow, type CompletedRequest } from '../../src/cdn/layeredFlow.js';
import { OriginModel } from '../../src/cdn/origin.js';
import { runLayers, type RunLayers } from '../../src/cdn/runLayers.js';
import { SharedCacheNode } from '../../src/cdn/sharedCacheNode.js';
import { CompiledDecisionTable } from '../../src/policy/compile.js';
import { RandomStreams } from '../../src/sim/random.js';
import { Simulation } from '../../src/sim/simulation.js';
import { IncidentSchedule, INCIDENT_START } from '../../src/cdn/incidentSchedule.js';
import { incidentsSchema, type IncidentInput } from '../../src/workload/incidents/incidentSchema.js';
import { newClientRequest } from '../../src/workload/request.js';
import { CHUNK_SIZE_BYTES } from '../../src/policy/ranges.js';

/**
 * A layered flow on a network of fixed hops, so every latency in a test is arithmetic:
 * client leg 20 ms, PoP ↔ regional 30 ms, regional (or PoP without a tier) ↔ origin 100 ms,
 * origin service 50 ms. A cold miss through the tier: 20 + 30 + 100 + 50 = 200 ms; the
 * response reaches the regional site 165 ms and the PoP 180 ms after the request was sent.
 */
/**
 * The Cache-Control of the content classes both cross-checks of the flow use (differential.test.ts,
 * timedReference.test.ts): stale-while-revalidate, no-cache, must-revalidate, a plain lifetime and
 * no-store; the timed reference adds a stale-if-error class, which needs time to show.
 */
export const CROSS_CHECK_CLASSES: readonly string[] = [
  'public, max-age=30, stale-while-revalidate=60',
  'no-cache',
  'public, max-age=20, must-revalidate',
  'public, max-age=45',
  'no-store',
];

export const CLIENT_LEG_MS = 20;
export const REGIONAL_HOP_MS = 30;
export const ORIGIN_RTT_MS = 100;
export const SERVICE_MS = 50;

/** Round trips of a FixedNetwork, ms (the origin's service time is one way). */
export interface HopTimes {
  clientLegMs: number;
  regionalHopMs: number;
  originRttMs: number;
  serviceMs: number;
}

export const DEFAULT_HOPS: HopTimes = { clientLegMs: CLIENT_LEG_MS, regionalHopMs: REGIONAL_HOP_MS, originRttMs: ORIGIN_RTT_MS, serviceMs: SERVICE_MS };

export class FixedNetwork implements FlowNetwork {
  readonly edgeCount: number;
  readonly regionalCount: number;
  readonly uplinkMsPerByte = null;
  clientLegMs: number;
  /** 1, or 0 for a network where every hop is instantaneous. */
  private readonly scale: number;
  constructor(
    edges: number,
    tiered: boolean,
    instantaneous: boolean,
    private readonly hops: HopTimes = DEFAULT_HOPS,
  ) {
    this.edgeCount = edges;
    this.regionalCount = tiered ? 1 : 0;
    this.scale = instantaneous ? 0 : 1;
    this.clientLegMs = hops.clientLegMs * this.scale;
  }
  /** A request's region picks its PoP. */
  route(request: { region: number }): number {
    return request.region % this.edgeCount;
  }
  popOf(request: { region: number }): number {
    return this.route(request);
  }
  regionalOf(): number {
    return this.regionalCount > 0 ? 0 : -1;
  }
  edgeToRegionalMs(): number {
    return this.hops.regionalHopMs * this.scale;
  }
  originRttMs(): number {
    return this.hops.originRttMs * this.scale;
  }
  directOriginRttMs(): number {
    return this.hops.originRttMs * this.scale;
  }
  originServiceMs(): number {
    return this.hops.serviceMs * this.scale;
  }
}

export interface HarnessOptions {
  /** The origin's response header fields for every object (one content class). */
  headers: Record<string, string>;
  /** More content classes: object o is of class o % (1 + extra classes), class 0 taking `headers`. */
  moreClasses?: Record<string, string>[];
  /** Every hop and the origin take no time (the differential test's clock). */
  instantaneous?: boolean;
  /** The network's hop times (default DEFAULT_HOPS). */
  hops?: HopTimes;
  tiered?: boolean;
  edges?: number;
  coalescing?: boolean;
  validators?: boolean;
  cdnEnabled?: boolean;
  incidents?: IncidentInput[];
  purgeDelayMs?: number;
  /** The origin's service time, ms (default SERVICE_MS; 0 when instantaneous). */
  serviceMs?: number;
  /** Clients with browser caches (spec 4.9 layer 1), each holding up to 255 keys; none by default. */
  browserClients?: number;
  /** The run's layers given to the flow (default: those of browserClients and tiered); only to test that the flow refuses layers that do not match. */
  layers?: RunLayers;
}

export interface SentRequest {
  timeMs: number;
  objectId?: number;
  region?: number;
  /** Chunks (spec 4.8): first chunk and count; absent for a whole object. */
  firstChunk?: number;
  pieces?: number;
  objectBytes?: number;
  /** A range's first byte and length (spec 4.8); without them a chunked request asks for its chunks whole. */
  rangeStart?: number;
  sizeBytes?: number;
  /** The client (its browser's slot), with `browserClients`; absent: an anonymous client. */
  client?: number;
}

export function flowHarness(options: HarnessOptions) {
  const simulation = new Simulation();
  const deployment = { kind: 'container' as const, framework: 'next', cdnEnabled: options.cdnEnabled ?? true };
  const table = new CompiledDecisionTable(deployment);
  const classHeaders = [options.headers, ...(options.moreClasses ?? [])];
  for (const headers of classHeaders) table.add({ url: '/objects/object', status: 200, headers });
  const errorClassOf = new Int32Array(100).fill(-1);
  errorClassOf[0] = table.add({ url: '/objects/object', status: 500, headers: {} });
  const incidents = incidentsSchema.parse(options.incidents ?? []);
  const schedule = new IncidentSchedule(incidents);
  const classIds = classHeaders.map((_, c) => c);
  const slot = schedule.conditions.classSlot('objects');
  const origin = new OriginModel(incidents.length ? schedule.conditions : null, Int32Array.from(classIds, () => slot), null, 100, new RandomStreams(1).stream('origin.errors'), () =>
    options.instantaneous ? 0 : (options.serviceMs ?? (options.hops ?? DEFAULT_HOPS).serviceMs),
  );
  schedule.schedule(simulation, (index, phase) => {
    if (incidents[index].kind === 'deploy' && phase === INCIDENT_START) origin.noteDeploy(classIds, simulation.nowMs);
  });
  let nodes = 0;
  const node = () => new SharedCacheNode(new SparseKeyStore(createCacheStore('lru', { capacity: 1e9 })), nodes++);
  const tiered = options.tiered ?? true;
  const network = new FixedNetwork(options.edges ?? 1, tiered, options.instantaneous ?? false, options.hops);
  const completed: CompletedRequest[] = [];
  const edges = Array.from({ length: network.edgeCount }, node);
  const regionals = tiered ? [node()] : [];
  const flow = new LayeredFlow({
    simulation,
    network,
    edges,
    regionals,
    decisions: table,
    errorClassOf,
    classOf: classHeaders.length === 1 ? null : Uint8Array.from({ length: 100 }, (_, o) => o % classHeaders.length),
    origin,
    browsers: options.browserClients === undefined ? null : new BrowserCaches(options.browserClients, 255),
    coalescing: options.coalescing ?? true,
    validators: options.validators ?? true,
    cdnEnabled: options.cdnEnabled ?? true,
    purgeDelayMs: options.purgeDelayMs ?? 2_000,
    // servedBytes is reused with the record: each kept copy gets its own.
    onComplete: (done) => completed.push({ ...done, servedBytes: done.servedBytes.slice() }),
    layers: options.layers ?? runLayers(options.browserClients !== undefined, tiered),
  });
  flow.measuredFromSeq = 0;
  const request = newClientRequest();
  let seq = 0;
  const sendEvent = simulation.defineEvent('test.send', (i) => {
    const sent = queue[i];
    request.timeMs = sent.timeMs;
    request.region = sent.region ?? 0;
    request.objectId = sent.objectId ?? 0;
    request.objectBytes = sent.objectBytes ?? 1000;
    // A chunked request without a range of its own asks for its chunks whole.
    request.sizeBytes = sent.sizeBytes ?? (sent.firstChunk === undefined ? request.objectBytes : Math.min((sent.pieces ?? 1) * CHUNK_SIZE_BYTES, request.objectBytes - sent.firstChunk * CHUNK_SIZE_BYTES));
    request.key = sent.pieces === undefined ? request.objectId : 1_000_000 + request.objectId * 1000 + (sent.firstChunk ?? 0);
    request.pieces = sent.pieces ?? 1;
    request.firstChunk = sent.firstChunk ?? -1;
    request.rangeStart = sent.rangeStart ?? (sent.firstChunk === undefined ? -1 : sent.firstChunk * CHUNK_SIZE_BYTES);
    request.clientSlot = sent.client ?? -1;
    flow.serve(request, seq++);
  });
  const queue: SentRequest[] = [];
  return {
    flow,
    /** The compiled decisions the flow reads (class 0 first). */
    table,
    /** The simulated clock the flow runs on (to schedule a test's own events). */
    simulation,
    /** The flow's cache nodes, to compare what they hold. */
    edges,
    regionals,
    /** Sends the requests at their times and runs until every one is answered; returns them in send order. */
    run(requests: SentRequest[]): CompletedRequest[] {
      completed.length = 0;
      const from = queue.length;
      queue.push(...requests);
      requests.forEach((sent, i) => simulation.schedule(sent.timeMs, sendEvent, from + i));
      simulation.run();
      return [...completed].sort((a, b) => a.seq - b.seq);
    },
  };
}
