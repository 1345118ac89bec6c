import { BROWSER_DECISION, EDGE_DECISION, FLAG_NEVER_STALE, FLAG_REVALIDATE_ALWAYS, FLAG_STORE, type CompiledDecisionTable } from '../policy/compile.js';
import { CHUNK_SIZE_BYTES } from '../policy/ranges.js';
import { PerSecondCounter } from '../metrics/perSecond.js';
import type { Simulation } from '../sim/simulation.js';
import { browserKeyOf, type ClientRequest } from '../workload/request.js';
import type { BrowserCaches } from './browserCaches.js';
import type { FlowNetwork } from './flowNetwork.js';
import { FETCH_ARRIVED, FETCH_BODY_RETURNING, FetchTable, PendingRequests } from './inFlight.js';
import { InFlightIndex } from './inFlightIndex.js';
import { ORIGIN_REFUSED, STATUS_OK, type OriginModel } from './origin.js';
import type { CacheNode } from './cacheNode.js';

/** The kind of node a fetch starts from. */
const NODE_EDGE = 0;
const NODE_REGIONAL = 1;
/** The status a PoP answers with when the origin refused the connection and nothing stale may be served. */
export const BAD_GATEWAY = 502;

/** Bits of CompletedRequest.outcome: what happened to the request on its way (several may be set). */
export const OUTCOME_COALESCED_EDGE = 1;
export const OUTCOME_COALESCED_REGIONAL = 2;
/** A stale copy was confirmed by a 304 (RFC 9111 §4.3.3) instead of fetched again. */
export const OUTCOME_REVALIDATED = 4;
/** Served stale inside its stale-while-revalidate window (RFC 5861 §3, spec 4.7 row 2). */
export const OUTCOME_STALE_WHILE_REVALIDATE = 8;
/** Served stale because the origin answered with an error (RFC 5861 §4). */
export const OUTCOME_STALE_ON_ERROR = 16;
/** Served stale because the origin refused the connection (spec 4.7 row 1). */
export const OUTCOME_STALE_ON_REFUSED = 32;
/** A cached origin error was served (spec 7.1). */
export const OUTCOME_CACHED_ERROR = 64;

/** A finished client request, handed to the flow's sink. One record is reused: read it, do not keep it. */
export interface CompletedRequest {
  /** Arrival order of the request (0, 1, 2, …), for warm-up by count. */
  seq: number;
  sendMs: number;
  region: number;
  classId: number;
  objectId: number;
  sizeBytes: number;
  /** The deepest flow layer that answered (index into `layers`). */
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
}

/**
 * Counters the flow keeps per node layer while `measuring` (edge 0, regional 1). Every
 * arrival ends in exactly one of: a fresh hit, a stale serve, a cached error served, a join
 * of a fetch in flight, or a fetch of its own (docs/conservation.md, "layer arrivals").
 */
export interface LayerActivity {
  /**
   * Lookups at this layer's nodes: a client request's piece (a whole object, or a 5 MB chunk
   * of a range, spec 4.8) at the edge, a PoP's fetch at a regional site. Without a CDN
   * (spec 1.3) each piece passes the edge straight to the origin and counts here as a fetch.
   */
  arrivals: number;
  /** Arrivals answered from a fresh stored copy. */
  freshHits: number;
  /** Arrivals answered stale inside stale-while-revalidate (RFC 5861 §3, spec 4.7 row 2). */
  staleWhileRevalidate: number;
  /** Arrivals answered with a cached origin error (spec 7.1). */
  cachedErrors: number;
  /** Requests that joined a fetch already in flight at a node of this layer. */
  coalesced: number;
  /** Fetches this layer sent upstream (background ones included). */
  fetches: number;
  /** Background revalidations started by stale-while-revalidate. */
  backgroundRevalidations: number;
  /** Responses that confirmed the copy the node held (304 Not Modified). */
  notModified: number;
  /** Body bytes of the answers to this layer's fetches (a 304 or an error has none). */
  bytesReceived: number;
  /** Body bytes this layer's nodes sent in answer to a lower layer's fetches (regional sites to PoPs; 0 at the edge, which answers clients). */
  bytesSentDown: number;
  /**
   * What was underway on this layer's hop to the next one as measuring started and as the
   * run ended: fetches sent and not yet arrived, body bytes answered and not yet back. The
   * two sides of a hop count at different moments; these close the difference.
   */
  underwayAtStart: { fetches: number; bytes: number };
  underwayAtEnd: { fetches: number; bytes: number };
}

export interface OriginActivity {
  /** Requests that reached the origin (refused connections included). */
  requests: number;
  refused: number;
  /** Error responses it sent (an error burst, spec 7.1). */
  errors: number;
  /** 304s: the requester already held the current version; no body sent. */
  notModified: number;
  /** Body bytes it sent. */
  bytes: number;
  /** Sum of its service times (application work to the first byte, slowdowns included) over the answers it gave, refused connections excluded, ms. */
  serviceMs: number;
}

export interface LayeredFlowOptions {
  readonly simulation: Simulation;
  readonly network: FlowNetwork;
  readonly edges: readonly CacheNode[];
  /** One per regional site; empty without a regional tier. */
  readonly regionals: readonly CacheNode[];
  /** The policy engine's compiled decisions per content class and layer. */
  readonly decisions: CompiledDecisionTable;
  /** Per error status (index status − 500): its class in `decisions` (a 5xx without headers, spec 7.1), −1 when not compiled. */
  readonly errorClassOf: Int32Array;
  /** Class id per object id; null: every object is class 0. */
  readonly classOf: Uint8Array | null;
  readonly origin: OriginModel;
  /** Clients' browser caches (spec 4.9 layer 1), or null when requests come from anonymous clients. */
  readonly browsers: BrowserCaches | null;
  /** Requests for a key already being fetched at a node wait for that fetch (default on). */
  readonly coalescing: boolean;
  /** The origin sends validators (ETag), so a stale copy is revalidated with a conditional request. */
  readonly validators: boolean;
  /** spec 1.3: false sends every request straight to the origin (a container deployment without the CDN). */
  readonly cdnEnabled: boolean;
  /** How long a purge takes to reach every node, ms (spec 1.2 item 6). */
  readonly purgeDelayMs: number;
  readonly onComplete: (request: CompletedRequest) => void;
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
 *    stored copy; an error is cached for 5 s unless a usable stale copy is served instead,
 *    spec 4.7, 7.1) and answers everyone waiting.
 * 6. `finish`: the last piece is back: time to first byte, staleness, the browser stores it.
 */
export class LayeredFlow {
  readonly layers: readonly string[];
  /** Node-layer and origin counters count only while this is true (after the warm-up): set by startMeasuring. */
  private measuring = false;
  readonly layerActivity: LayerActivity[] = [newLayerActivity(), newLayerActivity()];
  readonly originActivity: OriginActivity = { requests: 0, refused: 0, errors: 0, notModified: 0, bytes: 0, serviceMs: 0 };
  /** Requests reaching the origin per simulated second, warm-up included (the load around incidents). */
  readonly originArrivals = new PerSecondCounter();
  private readonly edgeLayer: number;
  private readonly regionalLayer: number;
  private readonly originLayer: number;
  private readonly tiered: boolean;
  private readonly requests = new PendingRequests();
  private readonly fetches = new FetchTable();
  /** (node, key) → the fetch in flight there. */
  private readonly inFlight = new InFlightIndex();
  private readonly done: CompletedRequest = {
    seq: 0, sendMs: 0, region: 0, classId: 0, objectId: 0, sizeBytes: 0, layer: 0, latencyMs: 0,
    transferMs: -1, edge: -1, regional: -1, status: STATUS_OK, outcome: 0, staleForMs: -1,
  };
  private readonly arriveRegionalEvent: number;
  private readonly arriveOriginEvent: number;
  private readonly fetchDoneEvent: number;

  constructor(private readonly options: LayeredFlowOptions) {
    const { network, edges, regionals, simulation } = options;
    if (edges.length !== network.edgeCount) throw new Error(`the network has ${network.edgeCount} PoPs but ${edges.length} edge caches were given`);
    if (regionals.length !== network.regionalCount) throw new Error(`the network has ${network.regionalCount} regional sites but ${regionals.length} regional caches were given`);
    this.tiered = network.regionalCount > 0;
    const cdnLayers = this.tiered ? ['edge', 'regional', 'origin'] : ['edge', 'origin'];
    this.layers = options.browsers === null ? cdnLayers : ['browser', ...cdnLayers];
    this.edgeLayer = options.browsers === null ? 0 : 1;
    this.regionalLayer = this.tiered ? this.edgeLayer + 1 : -1;
    this.originLayer = this.layers.length - 1;
    this.arriveRegionalEvent = simulation.defineEvent('cdn.arriveRegional', (fetch) => this.arriveRegional(fetch));
    this.arriveOriginEvent = simulation.defineEvent('cdn.arriveOrigin', (fetch) => this.arriveOrigin(fetch));
    this.fetchDoneEvent = simulation.defineEvent('cdn.fetchDone', (fetch) => this.fetchDone(fetch));
  }

  /** Client requests sent and not yet answered. */
  get requestsInFlight(): number {
    return this.requests.inFlight;
  }

  /** The warm-up is over: the counters count from now; what is underway on each hop is noted so the hop's two sides compare (docs/conservation.md). */
  startMeasuring(): void {
    this.measuring = true;
    this.noteUnderway('underwayAtStart');
  }

  /** The run is over: notes what is still underway on each hop (background revalidations the run does not wait for). */
  endMeasuring(): void {
    if (this.measuring) this.noteUnderway('underwayAtEnd');
    this.measuring = false;
  }

  private noteUnderway(moment: 'underwayAtStart' | 'underwayAtEnd'): void {
    const fetches = new Float64Array(2);
    const bytes = new Float64Array(2);
    this.fetches.underway(fetches, bytes);
    for (let kind = 0; kind < 2; kind++) this.layerActivity[kind][moment] = { fetches: fetches[kind], bytes: bytes[kind] };
  }

  /** A client sends `request` now (its timeMs); `seq` is its arrival order. */
  serve(request: ClientRequest, seq: number): void {
    const { options } = this;
    const nowMs = request.timeMs;
    const c = options.classOf === null ? 0 : options.classOf[request.objectId];
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
    const edge = options.network.route(request);
    // The common case, a whole object fresh at the PoP, is answered at once, with no record
    // in flight; its lookup (which counts as the request's, for the eviction policy) is
    // handed on otherwise.
    let edgeLocal = -1;
    if (request.pieces === 1 && options.cdnEnabled) {
      const node = options.edges[edge];
      edgeLocal = this.touch(node, request.key, c, nowMs);
      if (edgeLocal >= 0 && node.statusOf(edgeLocal) === STATUS_OK && nowMs < this.freshUntil(node, edgeLocal, c, EDGE_DECISION) && (options.decisions.flagsOf(c, EDGE_DECISION) & FLAG_REVALIDATE_ALWAYS) === 0) {
        if (this.measuring) {
          this.layerActivity[NODE_EDGE].arrivals++;
          this.layerActivity[NODE_EDGE].freshHits++;
        }
        this.completeEdgeHit(request, seq, c, edge, node, edgeLocal);
        return;
      }
    }
    const r = this.requests.take();
    const pending = this.requests;
    pending.sendMs[r] = nowMs;
    pending.clientLegMs[r] = options.network.clientLegMs;
    pending.doneAtMs[r] = nowMs;
    pending.responseAtMs[r] = Infinity;
    pending.seq[r] = seq;
    pending.sizeBytes[r] = request.sizeBytes;
    pending.objectId[r] = request.objectId;
    pending.key[r] = client >= 0 && request.firstChunk < 0 ? browserKeyOf(request) : -1;
    pending.classId[r] = c;
    pending.edge[r] = edge;
    pending.clientSlot[r] = client;
    pending.piecesLeft[r] = request.pieces;
    pending.version[r] = 2 ** 31 - 1;
    pending.layer[r] = this.edgeLayer;
    pending.outcome[r] = 0;
    pending.status[r] = STATUS_OK;
    pending.region[r] = request.region;
    // spec 4.8: a range needs each 5 MB chunk it touches, fetched side by side; it is
    // answered when the last one arrives.
    for (let i = 0; i < request.pieces; i++) {
      const bytes = pieceBytes(request, i);
      if (!options.cdnEnabled) {
        if (this.measuring) this.layerActivity[NODE_EDGE].arrivals++;
        this.startFetch(NODE_EDGE, edge, request.key + i, request.objectId, bytes, c, nowMs, -1 - r, -1);
      } else if (request.pieces === 1) this.lookedUp(NODE_EDGE, edge, edgeLocal, request.key, request.objectId, bytes, c, nowMs, -1 - r);
      else this.lookup(NODE_EDGE, edge, request.key + i, request.objectId, bytes, c, nowMs, -1 - r);
    }
  }

  /**
   * A request (waiter −1 − id) or a PoP's fetch (waiter ≥ 0) reaches a cache node for `key`.
   * What the node answers, the PoP compares with what it holds (its 304) when the answer arrives.
   */
  private lookup(kind: number, index: number, key: number, objectId: number, bytes: number, c: number, nowMs: number, waiter: number): void {
    const node = kind === NODE_EDGE ? this.options.edges[index] : this.options.regionals[index];
    this.lookedUp(kind, index, this.touch(node, key, c, nowMs), key, objectId, bytes, c, nowMs, waiter);
  }

  /** The node's lookup of `key` (the eviction policy sees a request): its stored entry's local id, or −1; a purged entry is dropped. */
  private touch(node: CacheNode, key: number, c: number, nowMs: number): number {
    const local = node.lookup(key, nowMs);
    if (local >= 0 && this.purged(node, local, c, nowMs)) {
      node.remove(key);
      return -1;
    }
    return local;
  }

  /** What a node does with a request for `key` once it has looked it up (`local`: its entry, or −1). */
  private lookedUp(kind: number, index: number, local: number, key: number, objectId: number, bytes: number, c: number, nowMs: number, waiter: number): void {
    const { options } = this;
    const node = kind === NODE_EDGE ? options.edges[index] : options.regionals[index];
    const decisionLayer = kind + EDGE_DECISION;
    const servedLayer = kind === NODE_EDGE ? this.edgeLayer : this.regionalLayer;
    const activity = this.layerActivity[kind];
    if (this.measuring) activity.arrivals++;
    let validate = -1;
    if (local >= 0) {
      if (node.statusOf(local) !== STATUS_OK) {
        // spec 7.1: a cached origin error is served until its 5 s are over, then the origin is retried.
        if (nowMs < node.freshUntilOf(local)) {
          if (this.measuring) activity.cachedErrors++;
          this.answer(waiter, nowMs, servedLayer, node.statusOf(local), node.versionOf(local), node.responseAtOf(local), OUTCOME_CACHED_ERROR);
          return;
        }
      } else {
        const table = options.decisions;
        const flags = table.flagsOf(c, decisionLayer);
        const freshUntil = this.freshUntil(node, local, c, decisionLayer);
        if ((flags & FLAG_REVALIDATE_ALWAYS) === 0 && nowMs < freshUntil) {
          if (this.measuring) activity.freshHits++;
          this.answer(waiter, nowMs, servedLayer, STATUS_OK, node.versionOf(local), node.responseAtOf(local), 0);
          return;
        }
        validate = options.validators ? node.versionOf(local) : -1;
        // RFC 5861 §3, spec 4.7 row 2: served stale at once ("up to N seconds": inclusive, as the
        // engine's reuseVerdict reads it); one background revalidation per node and key.
        const swrMs = table.staleWhileRevalidateMsOf(c, decisionLayer);
        if ((flags & FLAG_NEVER_STALE) === 0 && swrMs > 0 && nowMs <= freshUntil + swrMs) {
          if (this.measuring) activity.staleWhileRevalidate++;
          this.answer(waiter, nowMs, servedLayer, STATUS_OK, node.versionOf(local), node.responseAtOf(local), OUTCOME_STALE_WHILE_REVALIDATE);
          if (this.inFlight.get(node.id, key) < 0) {
            if (this.measuring) activity.backgroundRevalidations++;
            this.startFetch(kind, index, key, objectId, bytes, c, nowMs, NO_WAITER, validate);
          }
          return;
        }
      }
    }
    // Only a response this layer may store can answer other requests (RFC 9111 §3, §4): a
    // request for content the layer passes through makes its own fetch, unless the node
    // holds a cached error for the key, whose retry (spec 7.1) every request then waits for.
    if (options.coalescing && (local >= 0 || options.decisions.stores(c, decisionLayer))) {
      const inFlight = this.inFlight.get(node.id, key);
      if (inFlight >= 0) {
        this.fetches.addWaiter(inFlight, waiter);
        if (this.measuring) activity.coalesced++;
        this.markCoalesced(waiter, kind);
        return;
      }
    }
    this.startFetch(kind, index, key, objectId, bytes, c, nowMs, waiter, validate);
  }

  /** Node `index` of layer `kind` asks the next layer for `key`; `validate` is the version it holds (a conditional request) or −1. */
  private startFetch(kind: number, index: number, key: number, objectId: number, bytes: number, c: number, nowMs: number, waiter: number, validate: number): void {
    const { options, fetches } = this;
    const f = fetches.take();
    fetches.nodeKind[f] = kind;
    fetches.node[f] = index;
    fetches.key[f] = key;
    fetches.objectId[f] = objectId;
    fetches.classId[f] = c;
    fetches.bytes[f] = bytes;
    fetches.haveVersion[f] = validate;
    if (waiter !== NO_WAITER) fetches.addWaiter(f, waiter);
    if (this.measuring) this.layerActivity[kind].fetches++;
    const network = options.network;
    if (!options.cdnEnabled) {
      fetches.halfHopMs[f] = network.directOriginRttMs(index) / 2;
      options.simulation.schedule(nowMs + fetches.halfHopMs[f], this.arriveOriginEvent, f);
      return;
    }
    const node = kind === NODE_EDGE ? options.edges[index] : options.regionals[index];
    this.inFlight.set(node.id, key, f);
    if (kind === NODE_EDGE && this.tiered) {
      fetches.halfHopMs[f] = network.edgeToRegionalMs(index) / 2;
      options.simulation.schedule(nowMs + fetches.halfHopMs[f], this.arriveRegionalEvent, f);
    } else {
      fetches.halfHopMs[f] = network.originRttMs(index) / 2;
      options.simulation.schedule(nowMs + fetches.halfHopMs[f], this.arriveOriginEvent, f);
    }
  }

  /** A PoP's fetch reaches its regional site. */
  private arriveRegional(f: number): void {
    const { fetches } = this;
    fetches.stage[f] = FETCH_ARRIVED;
    const site = this.options.network.regionalOf(fetches.node[f]);
    this.lookup(NODE_REGIONAL, site, fetches.key[f], fetches.objectId[f], fetches.bytes[f], fetches.classId[f], this.options.simulation.nowMs, f);
  }

  /** A fetch reaches the origin, which answers as it is at this moment (incidents). */
  private arriveOrigin(f: number): void {
    const { fetches, options } = this;
    const origin = options.origin;
    const nowMs = options.simulation.nowMs;
    const status = origin.answer(nowMs);
    const version = origin.versionAt(fetches.objectId[f], fetches.classId[f], nowMs);
    const responseAtMs = nowMs + origin.serviceMs;
    this.originArrivals.record(nowMs);
    fetches.stage[f] = status === STATUS_OK && fetches.haveVersion[f] !== version ? FETCH_BODY_RETURNING : FETCH_ARRIVED;
    if (this.measuring) {
      const activity = this.originActivity;
      activity.requests++;
      activity.serviceMs += origin.serviceMs;
      if (status === ORIGIN_REFUSED) activity.refused++;
      else if (status !== STATUS_OK) activity.errors++;
      else if (fetches.haveVersion[f] === version) activity.notModified++;
      else activity.bytes += fetches.bytes[f];
    }
    this.setResponse(f, status, version, responseAtMs, this.originLayer, 0);
    options.simulation.schedule(responseAtMs + fetches.halfHopMs[f], this.fetchDoneEvent, f);
  }

  /** The answer to fetch `f` reaches the node that sent it: store, then answer its waiters. */
  private fetchDone(f: number): void {
    const { fetches, options } = this;
    const nowMs = options.simulation.nowMs;
    const kind = fetches.nodeKind[f];
    const key = fetches.key[f];
    const status = fetches.status[f];
    let answerStatus = status;
    let version = fetches.version[f];
    let responseAtMs = fetches.responseAtMs[f];
    let servedLayer = fetches.servedLayer[f];
    let outcome = fetches.outcome[f];
    // The same rule as the sender's (arriveOrigin, answer): a 200 that is not a 304 carries the body.
    if (this.measuring && status === STATUS_OK && fetches.haveVersion[f] !== version) this.layerActivity[kind].bytesReceived += fetches.bytes[f];
    if (options.cdnEnabled) {
      const node = kind === NODE_EDGE ? options.edges[fetches.node[f]] : options.regionals[fetches.node[f]];
      this.inFlight.deleteIf(node.id, key, f);
      const c = fetches.classId[f];
      const decisionLayer = kind + EDGE_DECISION;
      const table = options.decisions;
      const local = node.store.storedLocalOf(key);
      if (status === STATUS_OK) {
        if (fetches.haveVersion[f] === version) {
          outcome |= OUTCOME_REVALIDATED;
          if (this.measuring) this.layerActivity[kind].notModified++;
        }
        if ((table.flagsOf(c, decisionLayer) & FLAG_STORE) !== 0) {
          const freshUntil = responseAtMs + table.ttlMsOf(c, decisionLayer);
          if (local >= 0 && node.statusOf(local) === STATUS_OK && node.versionOf(local) === version) node.renew(local, responseAtMs, freshUntil);
          else node.put(key, fetches.bytes[f], nowMs, responseAtMs, freshUntil, version, STATUS_OK);
        } else if (local >= 0) {
          // A newer answer this layer may not store makes what it held (a cached error) obsolete.
          node.remove(key);
        }
      } else {
        // The engine's mayServeStaleOnError: a fresh copy always; a stale one unless never-stale, up to stale-if-error (inclusive).
        const flags = table.flagsOf(c, decisionLayer);
        const usable =
          local >= 0 &&
          node.statusOf(local) === STATUS_OK &&
          ((nowMs < this.freshUntil(node, local, c, decisionLayer) && (flags & FLAG_REVALIDATE_ALWAYS) === 0) ||
            ((flags & FLAG_NEVER_STALE) === 0 && nowMs <= this.freshUntil(node, local, c, decisionLayer) + table.staleIfErrorMsOf(c, decisionLayer)));
        if (usable) {
          // spec 4.7 row 1, RFC 5861 §4: the last good version instead of the error; the error is not stored over it.
          answerStatus = STATUS_OK;
          version = node.versionOf(local);
          responseAtMs = node.responseAtOf(local);
          servedLayer = kind === NODE_EDGE ? this.edgeLayer : this.regionalLayer;
          outcome = (outcome & ~OUTCOME_CACHED_ERROR) | (status === ORIGIN_REFUSED ? OUTCOME_STALE_ON_REFUSED : OUTCOME_STALE_ON_ERROR);
        } else if (status !== ORIGIN_REFUSED) {
          // spec 7.1: an origin error without explicit freshness is cached for 5 s (less its age).
          const errorClass = status >= 500 && status < 600 ? options.errorClassOf[status - 500] : -1;
          if (errorClass >= 0 && (table.flagsOf(errorClass, decisionLayer) & FLAG_STORE) !== 0) {
            node.put(key, 0, nowMs, responseAtMs, responseAtMs + table.ttlMsOf(errorClass, decisionLayer), version, status);
          }
        }
      }
    }
    let cell = fetches.takeWaiters(f);
    while (cell !== -1) {
      this.answer(fetches.waiterOf(cell), nowMs, servedLayer, answerStatus, version, responseAtMs, outcome);
      cell = fetches.nextWaiter(cell);
    }
    fetches.release(f);
  }

  /** Answers a waiter at `nowMs` at the node it waits at: a request's piece, or a PoP's fetch (which then travels back). */
  private answer(waiter: number, nowMs: number, servedLayer: number, status: number, version: number, responseAtMs: number, outcome: number): void {
    if (waiter === NO_WAITER) return;
    if (waiter >= 0) {
      const fetches = this.fetches;
      if (status === STATUS_OK && fetches.haveVersion[waiter] !== version) {
        fetches.stage[waiter] = FETCH_BODY_RETURNING;
        if (this.measuring) this.layerActivity[NODE_REGIONAL].bytesSentDown += fetches.bytes[waiter];
      }
      this.setResponse(waiter, status, version, responseAtMs, servedLayer, outcome);
      this.options.simulation.schedule(nowMs + this.fetches.halfHopMs[waiter], this.fetchDoneEvent, waiter);
      return;
    }
    const r = -1 - waiter;
    const pending = this.requests;
    // A refused connection travels down as such (each layer may still serve stale); the client gets 502.
    if (status === ORIGIN_REFUSED) status = BAD_GATEWAY;
    if (nowMs > pending.doneAtMs[r]) pending.doneAtMs[r] = nowMs;
    if (servedLayer > pending.layer[r]) pending.layer[r] = servedLayer;
    if (responseAtMs < pending.responseAtMs[r]) pending.responseAtMs[r] = responseAtMs;
    if (version < pending.version[r]) pending.version[r] = version;
    if (status !== STATUS_OK) pending.status[r] = status;
    pending.outcome[r] |= outcome;
    if (--pending.piecesLeft[r] === 0) this.finish(r);
  }

  private setResponse(f: number, status: number, version: number, responseAtMs: number, servedLayer: number, outcome: number): void {
    const fetches = this.fetches;
    fetches.status[f] = status;
    fetches.version[f] = version;
    fetches.responseAtMs[f] = responseAtMs;
    fetches.servedLayer[f] = servedLayer;
    fetches.outcome[f] = outcome;
  }

  /** The last piece of request `r` is back at its PoP: the client has its first byte one client leg later. */
  private finish(r: number): void {
    const { options, done } = this;
    const pending = this.requests;
    const doneAtMs = pending.doneAtMs[r];
    const status = pending.status[r];
    const c = pending.classId[r];
    const objectId = pending.objectId[r];
    const edge = pending.edge[r];
    done.seq = pending.seq[r];
    done.sendMs = pending.sendMs[r];
    done.region = pending.region[r];
    done.classId = c;
    done.objectId = objectId;
    done.sizeBytes = pending.sizeBytes[r];
    done.layer = pending.layer[r];
    done.latencyMs = doneAtMs + pending.clientLegMs[r] - pending.sendMs[r];
    const uplinks = options.network.uplinkMsPerByte;
    done.transferMs = uplinks === null || status !== STATUS_OK ? -1 : pending.sizeBytes[r] * uplinks[edge];
    done.edge = edge;
    done.regional = this.tiered && options.cdnEnabled && done.layer > this.edgeLayer ? options.network.regionalOf(edge) : -1;
    done.status = status;
    done.outcome = pending.outcome[r];
    const version = pending.version[r];
    const responseAtMs = pending.responseAtMs[r];
    const clientSlot = pending.clientSlot[r];
    const key = pending.key[r];
    pending.release(r);
    this.complete(doneAtMs, version, responseAtMs, clientSlot, key);
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
    const key = request.clientSlot >= 0 && request.firstChunk < 0 ? browserKeyOf(request) : -1;
    this.complete(request.timeMs, node.versionOf(local), node.responseAtOf(local), request.clientSlot, key);
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
   * outdated the response is, the browser's copy, the sink.
   */
  private complete(doneAtMs: number, version: number, responseAtMs: number, clientSlot: number, key: number): void {
    const { options, done } = this;
    const origin = options.origin;
    const c = done.classId;
    const ok = done.status === STATUS_OK;
    done.staleForMs = ok && version < origin.versionAt(done.objectId, c, doneAtMs) ? doneAtMs - origin.changedAtMs(done.objectId, c) : -1;
    // The browser keeps the response for its own lifetime, less the age it arrives with (RFC 9111 §4.2.3).
    const browsers = options.browsers;
    if (browsers !== null && key >= 0 && ok && options.decisions.stores(c, BROWSER_DECISION)) {
      const expiresAtMs = responseAtMs + options.decisions.ttlMsOf(c, BROWSER_DECISION);
      if (expiresAtMs > doneAtMs) browsers.insert(clientSlot, key, expiresAtMs);
    }
    options.onComplete(done);
  }

  private completeBrowserHit(request: ClientRequest, seq: number, c: number): void {
    const done = this.done;
    this.describe(request, seq, c);
    done.layer = 0;
    done.latencyMs = 0; // DESIGN "Metrics": a browser hit is 0 ms
    done.transferMs = -1;
    done.edge = -1;
    done.regional = -1;
    done.status = STATUS_OK;
    done.outcome = 0;
    done.staleForMs = -1;
    this.options.onComplete(done);
  }

  /** Marks the request, or the requests waiting on a PoP's fetch, as coalesced at this layer. */
  private markCoalesced(waiter: number, kind: number): void {
    const bit = kind === NODE_EDGE ? OUTCOME_COALESCED_EDGE : OUTCOME_COALESCED_REGIONAL;
    if (waiter < 0) {
      this.requests.outcome[-1 - waiter] |= bit;
      return;
    }
    const fetches = this.fetches;
    for (let cell = fetches.firstWaiter(waiter); cell !== -1; cell = fetches.peekNext(cell)) {
      const request = fetches.waiterOf(cell);
      if (request < 0) this.requests.outcome[-1 - request] |= bit;
    }
  }

  /**
   * When a stored response (status 200) stops being fresh at this layer: its response time
   * plus the lifetime in force now (RFC 9111 §4.2), not the one it was stored with, so a
   * lifetime the adaptive controller changes (spec 1.2 item 6) applies to what the caches
   * already hold. Without the controller the two are the same number.
   */
  private freshUntil(node: CacheNode, local: number, c: number, decisionLayer: number): number {
    return node.responseAtOf(local) + this.options.decisions.ttlMsOf(c, decisionLayer);
  }

  /** Whether a purge (a deploy with purge, spec 1.2 item 6) has reached this node since the entry was stored. */
  private purged(node: CacheNode, local: number, c: number, nowMs: number): boolean {
    if (!this.options.origin.purges) return false;
    const delay = this.options.purgeDelayMs;
    const purgedAt = this.options.origin.purgedAtMs(c, nowMs - delay);
    return node.storedAtOf(local) < purgedAt + delay;
  }
}

const NO_WAITER = -(2 ** 31);

/** Bytes of piece `i` of a request: the whole object, or a 5 MB chunk (the last one shorter), spec 4.8. */
export function pieceBytes(request: ClientRequest, i: number): number {
  if (request.firstChunk < 0) return request.objectBytes;
  const start = (request.firstChunk + i) * CHUNK_SIZE_BYTES;
  return Math.min(CHUNK_SIZE_BYTES, request.objectBytes - start);
}

function newLayerActivity(): LayerActivity {
  return {
    arrivals: 0, freshHits: 0, staleWhileRevalidate: 0, cachedErrors: 0, coalesced: 0, fetches: 0, backgroundRevalidations: 0, notModified: 0,
    bytesReceived: 0, bytesSentDown: 0, underwayAtStart: { fetches: 0, bytes: 0 }, underwayAtEnd: { fetches: 0, bytes: 0 },
  };
}
