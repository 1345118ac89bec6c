import { BROWSER_DECISION, EDGE_DECISION, FLAG_STORE, type CompiledDecisionTable } from '../policy/compile.js';
import { CHUNK_SIZE_BYTES } from '../policy/ranges.js';
import { PerSecondCounter } from '../metrics/perSecond.js';
import { UpstreamLoad } from '../metrics/upstreamLoad.js';
import type { Simulation } from '../sim/simulation.js';
import { browserKeyOf, type ClientRequest } from '../workload/request.js';
import type { FlowWiring } from './flowWiring.js';
import {
  F_AGE_MS,
  F_BYTES,
  F_CAUSE,
  F_CLASS_ID,
  F_ERROR_UNTIL_MS,
  F_HALF_HOP_MS,
  F_HAVE_VERSION,
  F_KEY,
  F_MEASURED,
  F_NODE,
  F_NODE_KIND,
  F_OBJECT_ID,
  F_OUTCOME,
  F_SENT_AT_MS,
  F_SERVED_LAYER,
  F_STATUS,
  F_VERSION,
  F_VERSION_AT_MS,
  FETCH_DOUBLES,
  FETCH_WORDS,
  FetchTable,
  LAYER_SLOTS,
  NO_WAITER,
  P_CLASS_ID,
  P_CLIENT_LEG_MS,
  P_CLIENT_SLOT,
  P_DONE_AT_MS,
  P_EDGE,
  P_FIRST_KEY,
  P_KEY,
  P_LAYER,
  P_OBJECT_ID,
  P_OUTCOME,
  P_PIECES_LEFT,
  P_RANGE_START,
  P_REGION,
  P_RESPONSE_AT_MS,
  P_SEND_MS,
  P_SEQ,
  P_SIZE_BYTES,
  P_STATUS,
  P_VERSION,
  PENDING_DOUBLES,
  PENDING_WORDS,
  PendingRequests,
} from './inFlight.js';
import { InFlightIndex } from './inFlightIndex.js';
import { ORIGIN_REFUSED, STATUS_OK } from './origin.js';
import { TIMES_RESPONSE_AT, TIMES_VERSION_AT, type CacheNode } from './cacheNode.js';
import { purgedByVersion, purgeReachedDeployMs } from './purge.js';
import { decisionLayerOf, NODE_EDGE, NODE_REGIONAL, type RunLayers } from './runLayers.js';
import {
  answersFromStore,
  errorLifetimeMs,
  freshUntilMs,
  REUSE_CACHED_ERROR,
  REUSE_FRESH,
  REUSE_STALE_ON_HELD_ERROR,
  REUSE_STALE_WHILE_REVALIDATE,
  reuseVerdictOf,
  storedAnswersFailure,
  storedIsFresh,
} from './reuseRule.js';
import type { ClassId, FetchId, KeyId, NodeIndex, ObjectId, SimMs } from '../sim/ids.js';
import type { CurveLayer } from '../cache/hitRatioCurves.js';

/** Slots of LayeredFlow's `reply`: the times an answer carries to its waiters. */
const REPLY_NOW_MS = 0;
const REPLY_VERSION_AT_MS = 1;
const REPLY_RESPONSE_AT_MS = 2;
const REPLY_ERROR_UNTIL_MS = 3;
/** Slots of LayeredFlow's `ending`: a completed request's times. */
const ENDING_DONE_AT_MS = 0;
const ENDING_RESPONSE_AT_MS = 1;

/** The status a PoP answers with when the origin refused the connection and nothing stale may be served. */
export const BAD_GATEWAY = 502;

/** Bits of CompletedRequest.outcome: what happened to the request on its way (several may be set). */
export const OUTCOME_COALESCED_EDGE = 1;
export const OUTCOME_COALESCED_REGIONAL = 2;
/** A stale copy was confirmed by a 304 (RFC 9111 §4.3.3) instead of fetched again. */
export const OUTCOME_REVALIDATED = 4;
/** Served stale inside its stale-while-revalidate window (RFC 5861 §3, spec 4.7 row 2). */
export const OUTCOME_STALE_WHILE_REVALIDATE = 8;
/** Served stale in place of an origin 5xx, within explicit permission (RFC 5861 §4, RFC 9111 §4.2.4), or while such an error is held (spec 7.1). */
export const OUTCOME_STALE_ON_ERROR = 16;
/** Served stale because the origin refused the connection (spec 4.7 row 1). */
export const OUTCOME_STALE_ON_REFUSED = 32;
/** A cached origin error was served (spec 7.1). */
export const OUTCOME_CACHED_ERROR = 64;

/**
 * Why a node sends a fetch upstream: what an origin request is counted under
 * (`OriginActivity.byCause`, docs/origin-accounting.md). The cause is the one of the node
 * that asks the origin; a fetch made for a background revalidation downstream stays one.
 */
/** Foreground: the node held nothing for the key (never stored, evicted, or content it does not store). */
export const ORIGIN_CAUSE_MISS = 0;
/** Foreground: the node held a copy it may not use without the origin (past its freshness and any stale-while-revalidate window, or no-cache, spec 4.3): a conditional request when validators are on. */
export const ORIGIN_CAUSE_EXPIRED = 1;
/** Foreground: the node held a cached origin error whose 5 s are over (spec 7.1). */
export const ORIGIN_CAUSE_ERROR_RETRY = 2;
/** Foreground: a purge (spec 1.2 item 6) dropped the node's copy at this lookup. */
export const ORIGIN_CAUSE_PURGED = 3;
/** Background: stale-while-revalidate's one revalidation per node and key (RFC 5861 §3); no client waits for it. */
export const ORIGIN_CAUSE_BACKGROUND = 4;

/** A finished client request, handed to the flow's sink. One record is reused: read it, do not keep it. */
export interface CompletedRequest {
  /** Arrival order of the request (0, 1, 2, …), for warm-up by count. */
  seq: number;
  sendMs: number;
  region: number;
  classId: number;
  objectId: number;
  sizeBytes: number;
  /** The deepest flow layer that answered (index into `layers.names`; src/cdn/runLayers.ts). */
  layer: number;
  /** Time to first byte at the client, ms: 0 for a browser hit. */
  latencyMs: number;
  /** Time to put the body on the PoP's uplink, ms; −1 without uplinks, for a browser hit or an error. */
  transferMs: number;
  /** The PoP (−1 for a browser hit) and regional site (−1 when none was asked). */
  edge: number;
  regional: number;
  /** 200, or the error status the client got (a 5xx from the origin, 502 when it was unreachable). */
  status: number;
  /** OUTCOME_* bits. */
  outcome: number;
  /** How long the origin has had a newer version than the one served, ms; −1 when the response is current. */
  staleForMs: number;
  /**
   * Client bytes per flow layer (indexed as `layer`), adding up to sizeBytes: each piece's
   * share of the bytes the client asked for, credited to the layer that served that piece
   * (spec 4.8: a window's chunks may come from different layers). Reused with the record:
   * copy it to keep it.
   */
  servedBytes: Float64Array;
}

/** Counters the flow keeps per node layer (indexed by node kind: NODE_EDGE, NODE_REGIONAL), of the work measured requests caused (`measuredFromSeq`). */
export interface LayerActivity {
  /** Requests that joined a fetch already in flight at a node of this layer. */
  coalesced: number;
  /** Fetches this layer sent upstream (background ones included). */
  fetches: number;
  /** Background revalidations started by stale-while-revalidate. */
  backgroundRevalidations: number;
  /**
   * Background revalidations whose answer left the node's copy fresh. The others were
   * answered with a copy already stale on arrival (a regional site's own stale copy, which
   * RFC 5861 §3 lets it serve, or an error), so the node stays stale and asks again.
   */
  backgroundRefreshes: number;
  /** Responses that confirmed the copy the node held (304 Not Modified). */
  notModified: number;
  /** Body bytes this layer's fetches received from the next layer (whole 5 MB chunks, spec 4.8; 304s and errors carry none). */
  fetchedBytes: number;
  /** Body bytes this layer sent answering the fetches of the layer below (a regional site to its PoPs; 0 at the edge, which answers clients). */
  answeredFetchBytes: number;
  /**
   * The layer's own lookups: every time a request or a fetch from below looked a key up in one
   * of its nodes (a request coalesced at a PoP counts once there, and its PoP's one fetch counts
   * once at the regional site). The stream a trace replay of that cache or Che's model sees.
   */
  lookups: number;
  /** Lookups the node answered from what it held (fresh, stale-while-revalidate, a cached error) without waiting for a fetch. */
  lookupHits: number;
  /** Body bytes of the looked-up objects (5 MB chunks for ranges, spec 4.8), and of the hits. */
  lookupBytes: number;
  lookupHitBytes: number;
}

/**
 * The origin's requests that measured requests caused (docs/origin-accounting.md):
 * `requests` = fullResponses + notModified + errors + refused = the sum of `byCause`.
 */
export interface OriginActivity {
  /** Requests that reached the origin (refused connections included). */
  requests: number;
  /** 200s with a body (the requester held no copy, or an older version). */
  fullResponses: number;
  /** 304s: the requester already held the current version; no body sent. */
  notModified: number;
  /** Error responses it sent (an error burst, spec 7.1). */
  errors: number;
  /** Connections it refused (an outage, spec 4.7 row 1). */
  refused: number;
  /** The same requests by why they were sent (ORIGIN_CAUSE_*). */
  byCause: OriginCauses;
  /** Body bytes it sent. */
  bytes: number;
  /** Sum of its service times (application work to the first byte, slowdowns included) over the answers it gave, refused connections excluded, ms. */
  serviceMs: number;
}

/** Origin requests by cause (ORIGIN_CAUSE_*); the first four are foreground, a client waiting. */
export interface OriginCauses {
  miss: number;
  expired: number;
  errorRetry: number;
  purged: number;
  backgroundRevalidation: number;
}

/** The flow's wiring (shared with the cache-only warm-up) and what only the timed flow has. */
export interface LayeredFlowOptions extends FlowWiring {
  readonly simulation: Simulation;
  /** Requests for a key already being fetched at a node wait for that fetch (default on). */
  readonly coalescing: boolean;
  /** The origin sends validators (ETag), so a stale copy is revalidated with a conditional request. */
  readonly validators: boolean;
  /** Hit-ratio curves (docs/curves.md): per node layer (edge, regional), the layer whose nodes record stack distances, or null. */
  readonly curves?: readonly (CurveLayer | null)[];
  readonly onComplete: (request: CompletedRequest) => void;
  /** The run's layers (src/cdn/runLayers.ts): browser caches on when `browsers` is given, a tier when there are regionals. */
  readonly layers: RunLayers;
}

/**
 * The CDN on the simulated clock (spec 4.9): a client's request goes to its browser cache,
 * then to its PoP, the PoP's regional site and the origin, each hop taking simulated time,
 * and comes back the same way; every layer decides by the policy engine's compiled decision
 * for the content class (DESIGN "Hot path"). Read one request through it in order:
 *
 * 1. `serve`: the browser (private cache: fresh or not); then routing to a PoP.
 * 2. `lookup` at the PoP: fresh hit → answered; inside stale-while-revalidate → answered
 *    stale and one background revalidation starts; otherwise a fetch upstream, conditional
 *    when the stale copy has a validator. A request for a key already being fetched there
 *    waits for that fetch (coalescing).
 * 3. `arriveRegional`: the same lookup at the regional site, answering the PoP's fetch.
 * 4. `arriveOrigin`: the origin answers as the incidents say (refused, an error, slow).
 * 5. `fetchDone`: the response reaches the node that asked; it stores it (a 304 renews the
 *    stored copy) and answers everyone waiting. An origin 5xx is cached for 5 s (spec 7.1);
 *    where the stored copy may answer in its place (stale-if-error, RFC 9111 §4.2.4) the copy
 *    is served and the error held beside it for those 5 s, so either way the node asks the
 *    origin about once per key per 5 s. A refused connection is answered from the last good
 *    copy (spec 4.7 row 1).
 * 6. `finish`: the last piece is back: time to first byte, staleness, the browser stores it.
 */
export class LayeredFlow {
  readonly layers: RunLayers;
  /**
   * Requests with seq ≥ this are measured (the run sets it when its warm-up ends); the
   * node-layer and origin counters count the work those requests cause, whenever it
   * happens, and none of what warm-up requests cause (docs/origin-accounting.md).
   */
  measuredFromSeq = Infinity;
  readonly layerActivity: LayerActivity[] = [newLayerActivity(), newLayerActivity()];
  readonly originActivity: OriginActivity = {
    requests: 0,
    fullResponses: 0,
    notModified: 0,
    errors: 0,
    refused: 0,
    byCause: { miss: 0, expired: 0, errorRetry: 0, purged: 0, backgroundRevalidation: 0 },
    bytes: 0,
    serviceMs: 0,
  };
  /** Requests reaching the origin per simulated second, warm-up included (the load around incidents). */
  readonly originArrivals = new PerSecondCounter();
  /** The origin's and each regional site's load per second from measured requests' work (docs/capacity.md). */
  readonly upstreamLoad: UpstreamLoad;
  private readonly browserLayer: number;
  private readonly edgeLayer: number;
  private readonly regionalLayer: number;
  private readonly originLayer: number;
  private readonly tiered: boolean;
  /**
   * What the run's scenario can need, decided once here (issue 27: every request went through
   * the all-features path): whether a deploy purges (spec 1.2 item 6), whether the origin's
   * versions ever change (content churn or deploys: a served copy can be outdated). Each
   * guards a whole block of the path.
   */
  private readonly purges: boolean;
  private readonly versionsChange: boolean;
  /** Whether the origin may fail (spec 4.7, 7.1): only then is an error held, and carried down with a fetch's answer. */
  private readonly mayFail: boolean;
  /** Browser caches (spec 4.9 layer 1): only they read a request's browser key, client and response time. */
  private readonly browsersOn: boolean;
  private readonly requests = new PendingRequests();
  private readonly fetches = new FetchTable();
  /** (node, key) → the fetch in flight there. */
  private readonly inFlight = new InFlightIndex();
  private readonly curveLayers: readonly (CurveLayer | null)[];
  /** Whether the last `touch` dropped a purged copy: the fetch that follows is ORIGIN_CAUSE_PURGED. */
  private droppedByPurge = false;
  private readonly done: CompletedRequest = {
    seq: 0, sendMs: 0, region: 0, classId: 0, objectId: 0, sizeBytes: 0, layer: 0, latencyMs: 0,
    transferMs: -1, edge: -1, regional: -1, status: STATUS_OK, outcome: 0, staleForMs: -1, servedBytes: new Float64Array(LAYER_SLOTS),
  };
  /**
   * The times of the answer being given, set once for all its waiters (by fetchDone and
   * setReplyFromEntry, read by answer): REPLY_*. Issue 27: passed as arguments to `answer`,
   * which the optimiser does not inline, each was a newly allocated heap number per call.
   */
  private readonly reply = new Float64Array(4);
  /**
   * The times of the request being completed (read by complete): ENDING_*. Issue 27: as
   * arguments of a call the optimiser does not always inline, each was a new heap number.
   */
  private readonly ending = new Float64Array(2);
  /** A stored entry's two times, for CacheNode.setTimes (TIMES_*): not passed to `put` (issue 27). */
  private readonly entryTimes = new Float64Array(2);
  private readonly arriveRegionalEvent: number;
  private readonly arriveOriginEvent: number;
  private readonly fetchDoneEvent: number;

  constructor(private readonly options: LayeredFlowOptions) {
    const { network, edges, regionals, simulation } = options;
    if (edges.length !== network.edgeCount) throw new Error(`the network has ${network.edgeCount} PoPs but ${edges.length} edge caches were given`);
    if (regionals.length !== network.regionalCount) throw new Error(`the network has ${network.regionalCount} regional sites but ${regionals.length} regional caches were given`);
    const { layers } = options;
    if (layers.tiered !== network.regionalCount > 0) throw new Error(`the run's layers ${layers.tiered ? 'have' : 'lack'} a regional tier but the network has ${network.regionalCount} regional sites`);
    if (layers.browsers !== (options.browsers !== null)) throw new Error(`the run's layers ${layers.browsers ? 'have' : 'lack'} browser caches but ${options.browsers === null ? 'none were' : 'some were'} given`);
    if (layers.names.length > LAYER_SLOTS) throw new Error(`${layers.names.length} layers, more than the ${LAYER_SLOTS} slots of a request's bytes per layer`);
    this.layers = layers;
    // Plain numeric fields: the hot path reads them per request.
    this.tiered = layers.tiered;
    this.browserLayer = layers.browser;
    this.edgeLayer = layers.edge;
    this.regionalLayer = layers.regional;
    this.originLayer = layers.origin;
    this.purges = options.origin.purges;
    this.versionsChange = options.origin.versionsChange;
    this.mayFail = options.origin.mayFail;
    this.browsersOn = layers.browsers;
    this.curveLayers = options.curves ?? [null, null];
    this.upstreamLoad = new UpstreamLoad(network.regionalCount);
    this.arriveRegionalEvent = simulation.defineEvent('cdn.arriveRegional', (fetch) => this.arriveRegional(fetch));
    this.arriveOriginEvent = simulation.defineEvent('cdn.arriveOrigin', (fetch) => this.arriveOrigin(fetch));
    this.fetchDoneEvent = simulation.defineEvent('cdn.fetchDone', (fetch) => this.fetchDone(fetch));
  }

  /** Client requests sent and not yet answered. */
  get requestsInFlight(): number {
    return this.requests.inFlight;
  }

  /** Fetches not yet back at the node that sent them, background revalidations included. */
  get fetchesInFlight(): number {
    return this.fetches.inFlight;
  }

  /**
   * A client sends `request` now (its timeMs); `seq` is its arrival order. Every driver sends
   * at the clock's time (the arrivals, media windows, one-off requests, recorded replays all
   * set timeMs to the simulation's nowMs), so the calls below read the clock instead of taking
   * the time: issue 27, a double passed to a call the optimiser leaves out of line is a new
   * heap number (in a cold run the hit paths are rare when serve is optimised, so even small
   * callees stay out of line).
   */
  serve(request: ClientRequest, seq: number): void {
    const { options } = this;
    // The request's ids and time take their brands here, at the CDN's door (src/sim/ids.ts).
    const nowMs = request.timeMs as SimMs;
    if (nowMs !== options.simulation.nowMs) throw new RangeError(`a request is served at the clock's time: it was sent at ${nowMs} ms, the clock is at ${options.simulation.nowMs} ms`);
    const c = (options.classOf === null ? 0 : options.classOf[request.objectId]) as ClassId;
    const objectId = request.objectId as ObjectId;
    const client = request.clientSlot;
    // spec 4.9 layer 1: the client's own browser first. Ranges bypass it (players keep
    // their own buffer, not the browser's HTTP cache).
    const browsers = options.browsers;
    if (browsers !== null && client >= 0 && request.firstChunk < 0) {
      if (request.newClient === 1) browsers.clear(client);
      if (browsers.lookup(client, browserKeyOf(request), nowMs)) {
        this.completeBrowserHit(request, seq, c);
        return;
      }
    }
    const edge = options.network.route(request) as NodeIndex;
    // The common case, a whole object fresh at the PoP, is answered at once, with no record
    // in flight; its lookup (which counts as the request's, for the eviction policy) is
    // handed on otherwise.
    let edgeLocal = -1;
    if (request.pieces === 1 && options.cdnEnabled) {
      const node = options.edges[edge];
      edgeLocal = this.touch(node, request.key as KeyId, c);
      const measured = seq >= this.measuredFromSeq;
      if (measured) this.countLookup(NODE_EDGE, pieceBytes(request, 0));
      if (edgeLocal >= 0 && this.freshAtEdge(node, edgeLocal, c)) {
        if (measured) this.countLookupHit(NODE_EDGE, pieceBytes(request, 0));
        this.completeEdgeHit(request, seq, c, edge, node, edgeLocal);
        return;
      }
    }
    const r = this.requests.take();
    const pending = this.requests;
    pending.numbers[r * PENDING_DOUBLES + P_SEND_MS] = nowMs;
    pending.numbers[r * PENDING_DOUBLES + P_CLIENT_LEG_MS] = options.network.clientLegMs;
    pending.numbers[r * PENDING_DOUBLES + P_DONE_AT_MS] = nowMs;
    pending.numbers[r * PENDING_DOUBLES + P_SEQ] = seq;
    pending.numbers[r * PENDING_DOUBLES + P_SIZE_BYTES] = request.sizeBytes;
    pending.words[r * PENDING_WORDS + P_OBJECT_ID] = objectId;
    pending.words[r * PENDING_WORDS + P_CLASS_ID] = c;
    pending.words[r * PENDING_WORDS + P_EDGE] = edge;
    pending.words[r * PENDING_WORDS + P_PIECES_LEFT] = request.pieces;
    pending.words[r * PENDING_WORDS + P_LAYER] = this.edgeLayer;
    pending.words[r * PENDING_WORDS + P_OUTCOME] = 0;
    pending.words[r * PENDING_WORDS + P_STATUS] = STATUS_OK;
    pending.words[r * PENDING_WORDS + P_REGION] = request.region;
    pending.numbers[r * PENDING_DOUBLES + P_RANGE_START] = request.rangeStart;
    // Issue 27: a record's columns are written only where the run can read them (fewer cache
    // lines a request): the browser's (spec 4.9 layer 1), the lowest version (staleness), a
    // range's first key and bytes per layer (spec 4.8; a whole object's are its one answer's layer's, set in finish).
    if (this.browsersOn) {
      pending.numbers[r * PENDING_DOUBLES + P_RESPONSE_AT_MS] = Infinity;
      pending.words[r * PENDING_WORDS + P_KEY] = client >= 0 && request.firstChunk < 0 ? browserKeyOf(request) : -1;
      pending.words[r * PENDING_WORDS + P_CLIENT_SLOT] = client;
    }
    if (this.versionsChange) pending.words[r * PENDING_WORDS + P_VERSION] = 2 ** 31 - 1;
    if (request.rangeStart >= 0) {
      pending.words[r * PENDING_WORDS + P_FIRST_KEY] = request.key as KeyId;
      const at = r * LAYER_SLOTS;
      for (let l = 0; l < LAYER_SLOTS; l++) pending.servedBytes[at + l] = 0;
    }
    // spec 4.8: a range needs each 5 MB chunk it touches, fetched side by side; it is
    // answered when the last one arrives.
    for (let i = 0; i < request.pieces; i++) {
      const bytes = pieceBytes(request, i);
      const key = (request.key + i) as KeyId;
      if (!options.cdnEnabled) this.startFetch(NODE_EDGE, edge, key, objectId, bytes, c, -1 - r, -1, ORIGIN_CAUSE_MISS, seq >= this.measuredFromSeq ? 1 : 0);
      else if (request.pieces === 1) this.lookedUp(NODE_EDGE, edge, edgeLocal, key, objectId, bytes, c, -1 - r);
      else this.lookup(NODE_EDGE, edge, key, objectId, bytes, c, -1 - r);
    }
  }

  /**
   * A request (waiter −1 − id) or a PoP's fetch (waiter ≥ 0) reaches a cache node for `key`.
   * What the node answers, the PoP compares with what it holds (its 304) when the answer arrives.
   */
  private lookup(kind: number, index: NodeIndex, key: KeyId, objectId: ObjectId, bytes: number, c: ClassId, waiter: number): void {
    const node = kind === NODE_EDGE ? this.options.edges[index] : this.options.regionals[index];
    const local = this.touch(node, key, c);
    if (this.measuredWaiter(waiter) === 1) this.countLookup(kind, bytes);
    this.lookedUp(kind, index, local, key, objectId, bytes, c, waiter);
  }

  /**
   * Whether the PoP's entry `local` answers now as a fresh hit (storedIsFresh). Its times are
   * read here, not passed in: serve's call of it (and of the node's accessors) is left out of
   * line in a cold run, and each double crossing it was a new heap number (issue 27).
   */
  private freshAtEdge(node: CacheNode, local: number, c: ClassId): boolean {
    return storedIsFresh(this.options.decisions, c, EDGE_DECISION, node.statusOf(local), node.responseAtOf(local), this.options.simulation.nowMs);
  }

  /** The reuse rule's verdict now on the node's entry `local` (reuseVerdictOf), its times read here as in freshAtEdge. */
  private verdictNow(node: CacheNode, local: number, c: ClassId, decisionLayer: number): number {
    const { options } = this;
    return reuseVerdictOf(options.decisions, options.errorClassOf, c, decisionLayer, node.statusOf(local), node.responseAtOf(local), node.errorUntilOf(local), options.simulation.nowMs);
  }

  /** A lookup at a node of layer `kind` (counted for measured requests' work; plain counters, no allocation). */
  private countLookup(kind: number, bytes: number): void {
    const activity = this.layerActivity[kind];
    activity.lookups++;
    activity.lookupBytes += bytes;
    // The node's lookup just handed its stack distance to the layer's curve (docs/curves.md).
    const curve = this.curveLayers[kind];
    if (curve !== null) curve.countLast(bytes);
  }

  /** The lookup was answered from what the node held. */
  private countLookupHit(kind: number, bytes: number): void {
    const activity = this.layerActivity[kind];
    activity.lookupHits++;
    activity.lookupHitBytes += bytes;
  }

  /** The node's lookup of `key` now (the eviction policy sees a request): its stored entry's local id, or −1; a purged entry is dropped. */
  private touch(node: CacheNode, key: KeyId, c: ClassId): number {
    const nowMs = this.options.simulation.nowMs;
    const local = node.lookup(key, nowMs);
    this.droppedByPurge = false;
    if (local >= 0 && this.purges && this.purged(node.versionAtOf(local), c, nowMs)) {
      node.remove(key);
      this.droppedByPurge = true;
      return -1;
    }
    return local;
  }

  /** What a node does with a request for `key` once it has looked it up (`local`: its entry, or −1). */
  private lookedUp(kind: number, index: NodeIndex, local: number, key: KeyId, objectId: ObjectId, bytes: number, c: ClassId, waiter: number): void {
    const { options } = this;
    const node = kind === NODE_EDGE ? options.edges[index] : options.regionals[index];
    const decisionLayer = decisionLayerOf(kind);
    const servedLayer = kind === NODE_EDGE ? this.edgeLayer : this.regionalLayer;
    let validate = -1;
    if (local >= 0) {
      // The reuse rule (src/cdn/reuseRule.ts): fresh, stale-while-revalidate, stale beside a held
      // error (spec 7.1, RFC 5861 §3–4), a cached error, or upstream.
      const status = node.statusOf(local);
      const verdict = this.verdictNow(node, local, c, decisionLayer);
      if (status === STATUS_OK) validate = options.validators ? node.versionOf(local) : -1;
      if (answersFromStore(verdict)) {
        // Read before answering: an answered request's record is released.
        const measured = this.measuredWaiter(waiter);
        if (measured === 1) this.countLookupHit(kind, bytes);
        const outcome =
          verdict === REUSE_FRESH ? 0 : verdict === REUSE_CACHED_ERROR ? OUTCOME_CACHED_ERROR : verdict === REUSE_STALE_ON_HELD_ERROR ? OUTCOME_STALE_ON_ERROR : OUTCOME_STALE_WHILE_REVALIDATE;
        // A stale copy carries the error held beside it down to the node below (spec 7.1).
        this.setReplyFromEntry(node, local, verdict !== REUSE_FRESH && verdict !== REUSE_CACHED_ERROR);
        this.answer(waiter, key, servedLayer, status, node.versionOf(local), outcome);
        // RFC 5861 §3, spec 4.7 row 2: one background revalidation per node and key.
        if (verdict === REUSE_STALE_WHILE_REVALIDATE && this.inFlight.get(node.id, key) < 0) {
          if (measured === 1) this.layerActivity[kind].backgroundRevalidations++;
          this.startFetch(kind, index, key, objectId, bytes, c, NO_WAITER, validate, ORIGIN_CAUSE_BACKGROUND, measured);
        }
        return;
      }
    }
    // Only a response this layer may store can answer other requests (RFC 9111 §3, §4): a
    // request for content the layer passes through makes its own fetch, unless the node
    // holds a cached error for the key, whose retry (spec 7.1) every request then waits for.
    if (options.coalescing && (local >= 0 || options.decisions.stores(c, decisionLayer))) {
      const inFlight = this.inFlight.get(node.id, key);
      if (inFlight >= 0) {
        this.fetches.addWaiter(inFlight, waiter);
        if (this.measuredWaiter(waiter) === 1) this.layerActivity[kind].coalesced++;
        this.markCoalesced(waiter, kind);
        return;
      }
    }
    // A regional fetch made for a PoP's background revalidation is background too: no client waits for it.
    const cause =
      waiter >= 0 && this.fetches.words[waiter * FETCH_WORDS + F_CAUSE] === ORIGIN_CAUSE_BACKGROUND
        ? ORIGIN_CAUSE_BACKGROUND
        : local < 0
          ? this.droppedByPurge
            ? ORIGIN_CAUSE_PURGED
            : ORIGIN_CAUSE_MISS
          : node.statusOf(local) !== STATUS_OK
            ? ORIGIN_CAUSE_ERROR_RETRY
            : ORIGIN_CAUSE_EXPIRED;
    this.startFetch(kind, index, key, objectId, bytes, c, waiter, validate, cause, this.measuredWaiter(waiter));
  }

  /** 1 when a request waiter is measured (its seq) or a fetch waiter was caused by a measured request; else 0. */
  private measuredWaiter(waiter: number): number {
    return waiter >= 0 ? this.fetches.words[waiter * FETCH_WORDS + F_MEASURED] : this.requests.numbers[(-1 - waiter) * PENDING_DOUBLES + P_SEQ] >= this.measuredFromSeq ? 1 : 0;
  }

  /**
   * Node `index` of layer `kind` asks the next layer for `key`; `validate` is the version it
   * holds (a conditional request) or −1; `cause` an ORIGIN_CAUSE_*; `measured` 1 when a
   * measured request caused it. Returns the fetch.
   */
  private startFetch(kind: number, index: NodeIndex, key: KeyId, objectId: ObjectId, bytes: number, c: ClassId, waiter: number, validate: number, cause: number, measured: number): FetchId {
    const { options, fetches } = this;
    const nowMs = options.simulation.nowMs;
    const f = fetches.take();
    fetches.words[f * FETCH_WORDS + F_NODE_KIND] = kind;
    fetches.words[f * FETCH_WORDS + F_NODE] = index;
    fetches.words[f * FETCH_WORDS + F_KEY] = key;
    // Read only for the origin's version of it (arriveOrigin).
    if (this.versionsChange) fetches.words[f * FETCH_WORDS + F_OBJECT_ID] = objectId;
    if (this.mayFail) fetches.numbers[f * FETCH_DOUBLES + F_ERROR_UNTIL_MS] = -Infinity;
    fetches.words[f * FETCH_WORDS + F_CLASS_ID] = c;
    fetches.numbers[f * FETCH_DOUBLES + F_BYTES] = bytes;
    fetches.words[f * FETCH_WORDS + F_HAVE_VERSION] = validate;
    fetches.numbers[f * FETCH_DOUBLES + F_SENT_AT_MS] = nowMs;
    fetches.words[f * FETCH_WORDS + F_CAUSE] = cause;
    fetches.words[f * FETCH_WORDS + F_MEASURED] = measured;
    if (waiter !== NO_WAITER) fetches.addWaiter(f, waiter);
    if (measured === 1) this.layerActivity[kind].fetches++;
    const network = options.network;
    if (!options.cdnEnabled) {
      fetches.numbers[f * FETCH_DOUBLES + F_HALF_HOP_MS] = network.directOriginRttMs(index) / 2;
      options.simulation.parkedAtMs[0] = nowMs + fetches.numbers[f * FETCH_DOUBLES + F_HALF_HOP_MS];
      options.simulation.scheduleParked(this.arriveOriginEvent, f);
      return f;
    }
    const node = kind === NODE_EDGE ? options.edges[index] : options.regionals[index];
    this.inFlight.set(node.id, key, f);
    if (kind === NODE_EDGE && this.tiered) {
      fetches.numbers[f * FETCH_DOUBLES + F_HALF_HOP_MS] = network.edgeToRegionalMs(index) / 2;
      options.simulation.parkedAtMs[0] = nowMs + fetches.numbers[f * FETCH_DOUBLES + F_HALF_HOP_MS];
      options.simulation.scheduleParked(this.arriveRegionalEvent, f);
    } else {
      fetches.numbers[f * FETCH_DOUBLES + F_HALF_HOP_MS] = network.originRttMs(index) / 2;
      options.simulation.parkedAtMs[0] = nowMs + fetches.numbers[f * FETCH_DOUBLES + F_HALF_HOP_MS];
      options.simulation.scheduleParked(this.arriveOriginEvent, f);
    }
    return f;
  }

  /** A PoP's fetch reaches its regional site. */
  private arriveRegional(f: number): void {
    const { fetches } = this;
    const site = this.options.network.regionalOf(fetches.nodeOf(f)) as NodeIndex;
    if (fetches.words[f * FETCH_WORDS + F_MEASURED] === 1) this.upstreamLoad.regionals.record(this.options.simulation.nowMs, site, 1, 0);
    const objectId = (this.versionsChange ? fetches.objectOf(f) : 0) as ObjectId;
    this.lookup(NODE_REGIONAL, site, fetches.keyOf(f), objectId, fetches.numbers[f * FETCH_DOUBLES + F_BYTES], fetches.classOf(f), f);
  }

  /** A fetch reaches the origin, which answers as it is at this moment (incidents). */
  private arriveOrigin(f: number): void {
    const { fetches, options } = this;
    const origin = options.origin;
    const nowMs = options.simulation.nowMs;
    const status = origin.answer(options.simulation);
    const version = this.versionsChange ? origin.versionAt(fetches.objectOf(f), fetches.classOf(f), nowMs) : 0;
    const responseAtMs = nowMs + origin.serviceMs;
    this.originArrivals.record(nowMs);
    // docs/origin-accounting.md: counted when a measured request caused it, whenever it arrives.
    if (fetches.words[f * FETCH_WORDS + F_MEASURED] === 1) {
      const activity = this.originActivity;
      activity.requests++;
      this.upstreamLoad.origin.record(nowMs, 0, 1, status === STATUS_OK && fetches.words[f * FETCH_WORDS + F_HAVE_VERSION] !== version ? fetches.numbers[f * FETCH_DOUBLES + F_BYTES] : 0);
      activity.serviceMs += origin.serviceMs;
      if (status === ORIGIN_REFUSED) activity.refused++;
      else if (status !== STATUS_OK) activity.errors++;
      else if (fetches.words[f * FETCH_WORDS + F_HAVE_VERSION] === version) activity.notModified++;
      else {
        activity.fullResponses++;
        activity.bytes += fetches.numbers[f * FETCH_DOUBLES + F_BYTES];
      }
      countCause(activity.byCause, fetches.words[f * FETCH_WORDS + F_CAUSE]);
    }
    // The version is the one the origin has as the request reaches it (spec 1.2 item 6: a purge
    // compares this moment with its deploy); a response the origin makes now has age 0.
    this.setResponse(f, status, version, nowMs, 0, this.originLayer, 0);
    options.simulation.parkedAtMs[0] = responseAtMs + fetches.numbers[f * FETCH_DOUBLES + F_HALF_HOP_MS];
    options.simulation.scheduleParked(this.fetchDoneEvent, f);
  }

  /** The answer to fetch `f` reaches the node that sent it: store, then answer its waiters. */
  private fetchDone(f: number): void {
    const { fetches, options } = this;
    const nowMs = options.simulation.nowMs;
    const kind = fetches.words[f * FETCH_WORDS + F_NODE_KIND];
    const key = fetches.keyOf(f);
    const status = fetches.words[f * FETCH_WORDS + F_STATUS];
    let answerStatus = status;
    let version = this.versionsChange ? fetches.words[f * FETCH_WORDS + F_VERSION] : 0;
    let versionAtMs = fetches.numbers[f * FETCH_DOUBLES + F_VERSION_AT_MS];
    // RFC 9111 §4.2.3: corrected_initial_age = age_value + response_delay (with one clock the
    // apparent age is never larger), so the copy's age counts from the moment the node sent
    // the fetch, less the age the answer came with: waiting upstream and both hops age it.
    let responseAtMs = fetches.sentAtOf(f) - fetches.numbers[f * FETCH_DOUBLES + F_AGE_MS];
    let servedLayer = fetches.words[f * FETCH_WORDS + F_SERVED_LAYER];
    let outcome = fetches.words[f * FETCH_WORDS + F_OUTCOME];
    /** Until when this node holds an origin error beside the copy it answers with (spec 7.1). */
    let errorUntilMs = -Infinity;
    if (options.cdnEnabled) {
      const node = kind === NODE_EDGE ? options.edges[fetches.nodeOf(f)] : options.regionals[fetches.nodeOf(f)];
      this.inFlight.deleteIf(node.id, key, f);
      const c = fetches.classOf(f);
      const decisionLayer = decisionLayerOf(kind);
      const table = options.decisions;
      let local = node.store.storedLocalOf(key);
      // spec 1.2 item 6, by version: once a purge has reached the node, a copy the origin read
      // before its deploy goes, whether the node holds it (it may have reached the node while
      // this fetch was out) or it is the answer arriving now (a fetch slower than the purge).
      const purgeDeployMs = this.purges ? purgeReachedDeployMs(options.origin, c, nowMs, options.purgeDelayMs) : -Infinity;
      if (local >= 0 && this.purges && purgedByVersion(node.versionAtOf(local), purgeDeployMs)) {
        node.remove(key);
        local = -1;
      }
      const storable = !this.purges || !purgedByVersion(versionAtMs, purgeDeployMs);
      if (status === STATUS_OK) {
        if (fetches.words[f * FETCH_WORDS + F_HAVE_VERSION] === version) {
          outcome |= OUTCOME_REVALIDATED;
          if (fetches.words[f * FETCH_WORDS + F_MEASURED] === 1) this.layerActivity[kind].notModified++;
        } else if (fetches.words[f * FETCH_WORDS + F_MEASURED] === 1) {
          this.layerActivity[kind].fetchedBytes += fetches.numbers[f * FETCH_DOUBLES + F_BYTES];
        }
        if ((table.flagsOf(c, decisionLayer) & FLAG_STORE) !== 0) {
          // Purged on arrival (not storable): the waiters still get it, it was on its way; the node keeps nothing.
          if (storable) {
            const freshUntil = freshUntilMs(responseAtMs, table.ttlMsOf(c, decisionLayer));
            let stored = local;
            if (local >= 0 && node.statusOf(local) === STATUS_OK && node.versionOf(local) === version) node.renew(local, responseAtMs);
            else {
              // The times follow in setTimes, not as put's arguments (issue 27: each was a heap number).
              stored = node.put(key, fetches.numbers[f * FETCH_DOUBLES + F_BYTES], 0, 0, version, STATUS_OK);
              if (stored >= 0) {
                const times = this.entryTimes;
                times[TIMES_VERSION_AT] = versionAtMs;
                times[TIMES_RESPONSE_AT] = responseAtMs;
                node.setTimes(stored, times);
              }
            }
            // The answer was the next layer's copy in place of an error it holds: hold it here too, so
            // this node does not ask again before that layer would (spec 7.1).
            if (this.mayFail && fetches.numbers[f * FETCH_DOUBLES + F_ERROR_UNTIL_MS] > nowMs && stored >= 0) {
              errorUntilMs = fetches.numbers[f * FETCH_DOUBLES + F_ERROR_UNTIL_MS];
              node.holdError(stored, errorUntilMs);
            }
            if (fetches.words[f * FETCH_WORDS + F_CAUSE] === ORIGIN_CAUSE_BACKGROUND && fetches.words[f * FETCH_WORDS + F_MEASURED] === 1 && nowMs < freshUntil) this.layerActivity[kind].backgroundRefreshes++;
          }
        } else if (local >= 0) {
          // A newer answer this layer may not store makes what it held (a cached error) obsolete.
          node.remove(key);
        }
      } else {
        // The reuse rule's storedAnswersFailure (the engine's mayServeStaleOnError): may the copy
        // answer in place of this 5xx or refused connection (RFC 9111 §4.2.4, spec 4.7 row 1)?
        const refused = status === ORIGIN_REFUSED;
        const usable = local >= 0 && storedAnswersFailure(table, c, decisionLayer, node.statusOf(local), node.responseAtOf(local), status, nowMs);
        // spec 7.1: an origin error without explicit freshness is cached for 5 s (less its age).
        const errorLifetime = errorLifetimeMs(table, options.errorClassOf, status, decisionLayer);
        if (usable) {
          // spec 4.7 row 1, RFC 5861 §4: the last good version instead of the error; the error is
          // held beside it (spec 7.1: origin protection whichever answer clients get).
          const errorResponseAtMs = responseAtMs;
          answerStatus = STATUS_OK;
          version = node.versionOf(local);
          versionAtMs = node.versionAtOf(local);
          responseAtMs = node.responseAtOf(local);
          servedLayer = kind === NODE_EDGE ? this.edgeLayer : this.regionalLayer;
          outcome = (outcome & ~OUTCOME_CACHED_ERROR) | (refused ? OUTCOME_STALE_ON_REFUSED : OUTCOME_STALE_ON_ERROR);
          if (errorLifetime >= 0) {
            // The error's own response time: its 5 s count from it (spec 7.1).
            errorUntilMs = freshUntilMs(errorResponseAtMs, errorLifetime);
            node.holdError(local, errorUntilMs);
          }
        } else if (errorLifetime >= 0 && storable) {
          node.put(key, 0, versionAtMs, responseAtMs, version, status);
        }
      }
    } else if (status === STATUS_OK && fetches.words[f * FETCH_WORDS + F_MEASURED] === 1) {
      // spec 1.3: without the CDN every answer is a whole body from the origin (no validators held).
      this.layerActivity[kind].fetchedBytes += fetches.numbers[f * FETCH_DOUBLES + F_BYTES];
    }
    // The first waiter (NO_WAITER for a background fetch: answer returns at once), then the later ones in order.
    const first = fetches.firstWaiterOf(f);
    let cell = fetches.takeWaiters(f);
    const reply = this.reply;
    reply[REPLY_NOW_MS] = nowMs;
    reply[REPLY_VERSION_AT_MS] = versionAtMs;
    reply[REPLY_RESPONSE_AT_MS] = responseAtMs;
    reply[REPLY_ERROR_UNTIL_MS] = errorUntilMs;
    this.answer(first, key, servedLayer, answerStatus, version, outcome);
    while (cell !== -1) {
      this.answer(fetches.waiterOf(cell), key, servedLayer, answerStatus, version, outcome);
      cell = fetches.nextWaiter(cell);
    }
    fetches.release(f);
  }

  /**
   * The times an answer from the node's entry `local` carries (`reply`, REPLY_*), now, read from
   * the entry here rather than passed (issue 27: lookedUp's calls are left out of line in a cold
   * run, and each double crossing them was a new heap number). `carriesError`: the entry is
   * served stale, so the error held beside it goes down with it (spec 7.1); else −∞.
   */
  private setReplyFromEntry(node: CacheNode, local: number, carriesError: boolean): void {
    const reply = this.reply;
    reply[REPLY_NOW_MS] = this.options.simulation.nowMs;
    reply[REPLY_VERSION_AT_MS] = node.versionAtOf(local);
    reply[REPLY_RESPONSE_AT_MS] = node.responseAtOf(local);
    reply[REPLY_ERROR_UNTIL_MS] = carriesError ? node.errorUntilOf(local) : -Infinity;
  }

  /**
   * Answers a waiter at the node it waits at, with `key`: a request's piece, or a PoP's fetch
   * (which then travels back). The answer's times are in `reply`: now, when the
   * origin read the version, the copy's age-zero moment, and until when the node holds an
   * origin error beside the copy it answers with (−∞ for none).
   */
  private answer(waiter: number, key: KeyId, servedLayer: number, status: number, version: number, outcome: number): void {
    if (waiter === NO_WAITER) return;
    const reply = this.reply;
    const nowMs = reply[REPLY_NOW_MS];
    const versionAtMs = reply[REPLY_VERSION_AT_MS];
    const responseAtMs = reply[REPLY_RESPONSE_AT_MS];
    const errorUntilMs = reply[REPLY_ERROR_UNTIL_MS];
    if (waiter >= 0) {
      // Only PoPs' fetches wait at a regional site; a body goes down unless the PoP holds this version (a 304).
      if (this.fetches.words[waiter * FETCH_WORDS + F_MEASURED] === 1 && status === STATUS_OK && this.fetches.words[waiter * FETCH_WORDS + F_HAVE_VERSION] !== version) {
        this.layerActivity[NODE_REGIONAL].answeredFetchBytes += this.fetches.numbers[waiter * FETCH_DOUBLES + F_BYTES];
        this.upstreamLoad.regionals.record(nowMs, this.options.network.regionalOf(this.fetches.nodeOf(waiter)), 0, this.fetches.numbers[waiter * FETCH_DOUBLES + F_BYTES]);
      }
      // The answer carries its age at this moment (its Age, RFC 9111 §5.1).
      this.setResponse(waiter, status, version, versionAtMs, nowMs - responseAtMs, servedLayer, outcome);
      if (this.mayFail) this.fetches.numbers[waiter * FETCH_DOUBLES + F_ERROR_UNTIL_MS] = errorUntilMs;
      this.options.simulation.parkedAtMs[0] = nowMs + this.fetches.numbers[waiter * FETCH_DOUBLES + F_HALF_HOP_MS];
      this.options.simulation.scheduleParked(this.fetchDoneEvent, waiter);
      return;
    }
    const r = -1 - waiter;
    const pending = this.requests;
    // A refused connection travels down as such (each layer may still serve stale); the client gets 502.
    if (status === ORIGIN_REFUSED) status = BAD_GATEWAY;
    if (nowMs > pending.numbers[r * PENDING_DOUBLES + P_DONE_AT_MS]) pending.numbers[r * PENDING_DOUBLES + P_DONE_AT_MS] = nowMs;
    if (servedLayer > pending.words[r * PENDING_WORDS + P_LAYER]) pending.words[r * PENDING_WORDS + P_LAYER] = servedLayer;
    if (this.browsersOn && responseAtMs < pending.numbers[r * PENDING_DOUBLES + P_RESPONSE_AT_MS]) pending.numbers[r * PENDING_DOUBLES + P_RESPONSE_AT_MS] = responseAtMs;
    if (this.versionsChange && version < pending.words[r * PENDING_WORDS + P_VERSION]) pending.words[r * PENDING_WORDS + P_VERSION] = version;
    if (status !== STATUS_OK) pending.words[r * PENDING_WORDS + P_STATUS] = status;
    pending.words[r * PENDING_WORDS + P_OUTCOME] |= outcome;
    // spec 4.8: this piece's share of the client's bytes is served by this layer.
    const rangeStart = pending.numbers[r * PENDING_DOUBLES + P_RANGE_START];
    if (rangeStart >= 0) pending.servedBytes[r * LAYER_SLOTS + servedLayer] += chunkShareOfRange(rangeStart, pending.numbers[r * PENDING_DOUBLES + P_SIZE_BYTES], key - pending.firstKeyOf(r));
    if (--pending.words[r * PENDING_WORDS + P_PIECES_LEFT] === 0) this.finish(r);
  }

  private setResponse(f: number, status: number, version: number, versionAtMs: number, ageMs: number, servedLayer: number, outcome: number): void {
    const fetches = this.fetches;
    fetches.words[f * FETCH_WORDS + F_STATUS] = status;
    // Without version changes every version is 0 (OriginModel.versionsChange): fetchDone reads 0 then.
    if (this.versionsChange) fetches.words[f * FETCH_WORDS + F_VERSION] = version;
    fetches.numbers[f * FETCH_DOUBLES + F_VERSION_AT_MS] = versionAtMs;
    fetches.numbers[f * FETCH_DOUBLES + F_AGE_MS] = ageMs;
    fetches.words[f * FETCH_WORDS + F_SERVED_LAYER] = servedLayer;
    fetches.words[f * FETCH_WORDS + F_OUTCOME] = outcome;
  }

  /** The last piece of request `r` is back at its PoP: the client has its first byte one client leg later. */
  private finish(r: number): void {
    const { options, done } = this;
    const pending = this.requests;
    const doneAtMs = pending.numbers[r * PENDING_DOUBLES + P_DONE_AT_MS];
    const status = pending.words[r * PENDING_WORDS + P_STATUS];
    const c = pending.words[r * PENDING_WORDS + P_CLASS_ID];
    const objectId = pending.words[r * PENDING_WORDS + P_OBJECT_ID];
    const edge = pending.edgeOf(r);
    done.seq = pending.numbers[r * PENDING_DOUBLES + P_SEQ];
    done.sendMs = pending.numbers[r * PENDING_DOUBLES + P_SEND_MS];
    done.region = pending.words[r * PENDING_WORDS + P_REGION];
    done.classId = c;
    done.objectId = objectId;
    done.sizeBytes = pending.numbers[r * PENDING_DOUBLES + P_SIZE_BYTES];
    done.layer = pending.words[r * PENDING_WORDS + P_LAYER];
    done.latencyMs = doneAtMs + pending.numbers[r * PENDING_DOUBLES + P_CLIENT_LEG_MS] - pending.numbers[r * PENDING_DOUBLES + P_SEND_MS];
    const uplinks = options.network.uplinkMsPerByte;
    done.transferMs = uplinks === null || status !== STATUS_OK ? -1 : pending.numbers[r * PENDING_DOUBLES + P_SIZE_BYTES] * uplinks[edge];
    done.edge = edge;
    done.regional = this.tiered && options.cdnEnabled && done.layer > this.edgeLayer ? options.network.regionalOf(edge) : -1;
    done.status = status;
    done.outcome = pending.words[r * PENDING_WORDS + P_OUTCOME];
    // A whole object has one piece, answered once, by the layer that is done.layer.
    if (pending.numbers[r * PENDING_DOUBLES + P_RANGE_START] < 0) this.servedWholeBy(done.layer, done.sizeBytes);
    else {
      const servedBytes = done.servedBytes;
      const at = r * LAYER_SLOTS;
      for (let l = 0; l < LAYER_SLOTS; l++) servedBytes[l] = pending.servedBytes[at + l];
    }
    // Read only where written (serve): version for staleness, the rest for the browser's copy.
    const version = this.versionsChange ? pending.words[r * PENDING_WORDS + P_VERSION] : 0;
    const browsersOn = this.browsersOn;
    const responseAtMs = browsersOn ? pending.numbers[r * PENDING_DOUBLES + P_RESPONSE_AT_MS] : Infinity;
    const clientSlot = browsersOn ? pending.words[r * PENDING_WORDS + P_CLIENT_SLOT] : -1;
    const key = browsersOn ? pending.words[r * PENDING_WORDS + P_KEY] : -1;
    pending.release(r);
    const ending = this.ending;
    ending[ENDING_DONE_AT_MS] = doneAtMs;
    ending[ENDING_RESPONSE_AT_MS] = responseAtMs;
    this.complete(version, clientSlot, key);
  }

  /** A fresh hit at the PoP, answered when it arrives (time to first byte: the client leg). */
  private completeEdgeHit(request: ClientRequest, seq: number, c: number, edge: number, node: CacheNode, local: number): void {
    const { options, done } = this;
    this.describe(request, seq, c);
    done.layer = this.edgeLayer;
    done.latencyMs = options.network.clientLegMs;
    const uplinks = options.network.uplinkMsPerByte;
    done.transferMs = uplinks === null ? -1 : request.sizeBytes * uplinks[edge];
    done.edge = edge;
    done.regional = -1;
    done.status = STATUS_OK;
    done.outcome = 0;
    this.servedWholeBy(this.edgeLayer, request.sizeBytes);
    const key = request.clientSlot >= 0 && request.firstChunk < 0 ? browserKeyOf(request) : -1;
    // Read only where complete reads them: the version for staleness, the response time for the browser's copy.
    const ending = this.ending;
    ending[ENDING_DONE_AT_MS] = request.timeMs;
    ending[ENDING_RESPONSE_AT_MS] = this.browsersOn ? node.responseAtOf(local) : Infinity;
    this.complete(this.versionsChange ? node.versionOf(local) : 0, request.clientSlot, key);
  }

  /** What a request answered at once was: its fields in the reused record. */
  private describe(request: ClientRequest, seq: number, c: number): void {
    const done = this.done;
    done.seq = seq;
    done.sendMs = request.timeMs;
    done.region = request.region;
    done.classId = c;
    done.objectId = request.objectId;
    done.sizeBytes = request.sizeBytes;
  }

  /**
   * The common end of a request answered by the CDN (`done` filled but for staleness): how
   * outdated the response is, the browser's copy, the sink. Its times are in `ending`
   * (ENDING_*): when the PoP was done, and the copy's age-zero moment.
   */
  private complete(version: number, clientSlot: number, key: number): void {
    const { options, done } = this;
    const doneAtMs = this.ending[ENDING_DONE_AT_MS];
    const responseAtMs = this.ending[ENDING_RESPONSE_AT_MS];
    const origin = options.origin;
    const c = done.classId;
    const ok = done.status === STATUS_OK;
    // Without churn or deploys every copy is the origin's only version: nothing served is outdated.
    done.staleForMs = this.versionsChange && ok && version < origin.versionAt(done.objectId, c, doneAtMs) ? doneAtMs - origin.changedAtMs(done.objectId, c) : -1;
    // The browser keeps the response for its own lifetime, less the age it arrives with: the
    // PoP's age for it plus the time the browser waited (RFC 9111 §4.2.3 response_delay).
    const browsers = options.browsers;
    if (browsers !== null && key >= 0 && ok && options.decisions.stores(c, BROWSER_DECISION)) {
      const expiresAtMs = freshUntilMs(responseAtMs - (doneAtMs - done.sendMs), options.decisions.ttlMsOf(c, BROWSER_DECISION));
      if (expiresAtMs > doneAtMs) browsers.insert(clientSlot, key, expiresAtMs);
    }
    options.onComplete(done);
  }

  private completeBrowserHit(request: ClientRequest, seq: number, c: number): void {
    const done = this.done;
    this.describe(request, seq, c);
    done.layer = this.browserLayer;
    done.latencyMs = 0; // DESIGN "Metrics": a browser hit is 0 ms
    done.transferMs = -1;
    done.edge = -1;
    done.regional = -1;
    done.status = STATUS_OK;
    done.outcome = 0;
    done.staleForMs = -1;
    this.servedWholeBy(this.browserLayer, request.sizeBytes);
    this.options.onComplete(done);
  }

  /** A request answered whole by one layer: all its bytes are that layer's. */
  private servedWholeBy(layer: number, sizeBytes: number): void {
    const servedBytes = this.done.servedBytes;
    for (let l = 0; l < LAYER_SLOTS; l++) servedBytes[l] = 0;
    servedBytes[layer] = sizeBytes;
  }

  /** Marks the request, or the requests waiting on a PoP's fetch, as coalesced at this layer. */
  private markCoalesced(waiter: number, kind: number): void {
    const bit = kind === NODE_EDGE ? OUTCOME_COALESCED_EDGE : OUTCOME_COALESCED_REGIONAL;
    if (waiter < 0) {
      this.requests.words[(-1 - waiter) * PENDING_WORDS + P_OUTCOME] |= bit;
      return;
    }
    const fetches = this.fetches;
    const first = fetches.firstWaiterOf(waiter);
    if (first < 0 && first !== NO_WAITER) this.requests.words[(-1 - first) * PENDING_WORDS + P_OUTCOME] |= bit;
    for (let cell = fetches.firstWaiterCell(waiter); cell !== -1; cell = fetches.peekNext(cell)) {
      const request = fetches.waiterOf(cell);
      if (request < 0) this.requests.words[(-1 - request) * PENDING_WORDS + P_OUTCOME] |= bit;
    }
  }

  /** Whether a purge (a deploy with purge, spec 1.2 item 6) that has reached the node by `nowMs` drops a copy the origin read at `versionAtMs` (src/cdn/purge.ts). */
  private purged(versionAtMs: number, c: number, nowMs: number): boolean {
    const { origin, purgeDelayMs } = this.options;
    return origin.purges && purgedByVersion(versionAtMs, purgeReachedDeployMs(origin, c, nowMs, purgeDelayMs));
  }
}


/** Bytes of piece `i` of a request: the whole object, or a 5 MB chunk (the last one shorter), spec 4.8. */
export function pieceBytes(request: ClientRequest, i: number): number {
  if (request.firstChunk < 0) return request.objectBytes;
  const start = (request.firstChunk + i) * CHUNK_SIZE_BYTES;
  return Math.min(CHUNK_SIZE_BYTES, request.objectBytes - start);
}

/**
 * spec 4.8: of a range of `rangeBytes` bytes from byte `rangeStart`, the bytes that lie in
 * its `piece`-th chunk (piece 0 is the chunk holding rangeStart): the share of the client's
 * response that chunk supplies, whichever layer served it.
 */
export function chunkShareOfRange(rangeStart: number, rangeBytes: number, piece: number): number {
  const chunkStart = (Math.floor(rangeStart / CHUNK_SIZE_BYTES) + piece) * CHUNK_SIZE_BYTES;
  const first = chunkStart > rangeStart ? chunkStart : rangeStart;
  const rangeEnd = rangeStart + rangeBytes;
  const chunkEnd = chunkStart + CHUNK_SIZE_BYTES;
  const end = chunkEnd < rangeEnd ? chunkEnd : rangeEnd;
  return end > first ? end - first : 0;
}

function countCause(byCause: OriginCauses, cause: number): void {
  switch (cause) {
    case ORIGIN_CAUSE_MISS:
      byCause.miss++;
      break;
    case ORIGIN_CAUSE_EXPIRED:
      byCause.expired++;
      break;
    case ORIGIN_CAUSE_ERROR_RETRY:
      byCause.errorRetry++;
      break;
    case ORIGIN_CAUSE_PURGED:
      byCause.purged++;
      break;
    default:
      byCause.backgroundRevalidation++;
  }
}

function newLayerActivity(): LayerActivity {
  return { coalesced: 0, fetches: 0, backgroundRevalidations: 0, backgroundRefreshes: 0, notModified: 0, fetchedBytes: 0, answeredFetchBytes: 0, lookups: 0, lookupHits: 0, lookupBytes: 0, lookupHitBytes: 0 };
}
