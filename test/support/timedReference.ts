import type { HttpRequest, HttpResponse } from '../../src/cdn/httpCacheNode.js';
import {
  OUTCOME_CACHED_ERROR,
  OUTCOME_COALESCED_EDGE,
  OUTCOME_COALESCED_REGIONAL,
  OUTCOME_REVALIDATED,
  OUTCOME_STALE_ON_ERROR,
  OUTCOME_STALE_ON_REFUSED,
  OUTCOME_STALE_WHILE_REVALIDATE,
} from '../../src/cdn/layeredFlow.js';
import { decide } from '../../src/policy/decision.js';
import type { CacheLayer, Deployment } from '../../src/policy/deployment.js';
import { mayServeStaleOnError, reuseVerdict } from '../../src/policy/reuse.js';
import { hasValidator, mergeNotModified } from '../../src/policy/revalidation.js';
import {
  answerFromStored,
  decideStored,
  FETCH_WHOLE,
  receiveResponse,
  refreshedStored,
  revalidationRequest,
  type CacheSetting,
  type StoredResponse,
} from '../../src/policy/storedResponse.js';
import { Simulation } from '../../src/sim/simulation.js';

/**
 * The timed reference: the CDN of spec 4.9 (PoPs over one regional site over an origin) as
 * whole HTTP messages on a simulated clock, every rule taken from the policy engine on header
 * fields (the pure functions HttpCacheNode is made of: reuseVerdict, receiveResponse,
 * refreshedStored, mayServeStaleOnError, answerFromStored) and every hop taking time. It is
 * HttpCacheNode split at its upstream call, so that other requests are handled while a fetch
 * is in flight: what only time shows (coalescing, one background revalidation per node and
 * key, ages that grow on the way, errors cached while requests keep coming) can be compared
 * with the layered flow request by request. Slow on purpose: Maps and closures.
 *
 * Where each rule lives (for whoever changes one):
 * - freshness, stale-while-revalidate, age (RFC 9111 §4.2, §4.2.3; RFC 5861 §3): `lookup`,
 *   through reuseVerdict; the ages come from Date and Age header fields via the engine;
 * - one background revalidation per node and key (spec 4.7 row 2): `lookup`, `inFlight`;
 * - coalescing (only for what the layer may store, RFC 9111 §3, §4): `lookup`;
 * - conditional requests and 304 (RFC 9111 §4.3): `startFetch`, `fetchDone`, `answerWaiter`;
 * - stale on error or refused connection (spec 4.7 row 1, RFC 5861 §4): `fetchDone`;
 * - errors cached 5 s less their age (spec 7.1): `fetchDone`, through receiveResponse;
 * - purges (spec 1.2 item 6), by version: `purge`, run when the purge has reached every node, and `store`;
 * - the origin (incidents, versions, validators): `TimedOrigin`.
 */

/** Flow layer numbers (LayeredFlow.layers without a browser layer). */
export const LAYER_EDGE = 0;
export const LAYER_REGIONAL = 1;
export const LAYER_ORIGIN = 2;

export interface ReferenceHops {
  /** Client ↔ PoP round trip: added to the time to first byte, no cache sees it. */
  clientLegMs: number;
  /** One way PoP → regional site. */
  regionalHalfMs: number;
  /** One way regional site → origin. */
  originHalfMs: number;
  serviceMs: number;
}

export interface ReferenceScenario {
  /** Cache-Control per content class; object o is of class o % classes.length. */
  classes: readonly string[];
  edges: number;
  hops: ReferenceHops;
  coalescing: boolean;
  outages: readonly { from: number; to: number }[];
  /** Every request reaching the origin inside gets a 500. */
  bursts: readonly { from: number; to: number }[];
  deploys: readonly { at: number; purge: boolean }[];
  purgeDelayMs: number;
  /** Requests with a `client` go through that client's browser cache first (spec 4.9 layer 1). */
  browsers: boolean;
}

export interface ReferenceRequest {
  timeMs: number;
  objectId: number;
  region: number;
  /** A chunk request (spec 4.8): its first chunk and how many; absent for a whole object. */
  firstChunk?: number;
  pieces?: number;
  /** The client whose browser sends it (with `browsers`); chunk requests bypass the browser. */
  client?: number;
}

/** What the reference says of one request: the fields of the flow's CompletedRequest it compares. */
export interface ReferenceRecord {
  /** 'browser', 'edge', 'regional' or 'origin': the deepest layer that answered. */
  layer: string;
  latencyMs: number;
  status: number;
  outcome: number;
  staleForMs: number;
}

/** The counters LayeredFlow keeps (LayerActivity per node layer, OriginActivity), counted here from the messages. */
export interface ReferenceCounters {
  layers: { coalesced: number; fetches: number; backgroundRevalidations: number; notModified: number }[];
  origin: { requests: number; refused: number; errors: number; notModified: number };
}

/** An answer travelling down: the HTTP response (undefined: the connection was refused), and the flow's bookkeeping beside it. */
interface Answer {
  response: HttpResponse | undefined;
  servedLayer: number;
  outcome: number;
}

/** A client request's piece or a PoP's fetch, waiting at a node. */
type Waiter = { kind: 'piece'; request: PendingRequest } | { kind: 'fetch'; fetch: Fetch };

interface PendingRequest {
  sentMs: number;
  /** The browser to store the response in, and the URL, for a whole object from a client. */
  browser: Map<string, StoredResponse> | undefined;
  url: string;
  /** The last piece's response as it left the PoP. */
  response: HttpResponse | undefined;
  objectId: number;
  piecesLeft: number;
  layer: number;
  outcome: number;
  status: number;
  version: number;
  doneAtMs: number;
  record: ReferenceRecord;
}

interface Fetch {
  node: TimedNode;
  url: string;
  request: HttpRequest;
  sentAtMs: number;
  /** The stored response the fetch validates (a conditional request), if any. */
  validates: StoredResponse | undefined;
  waiters: Waiter[];
}

const DEPLOYMENT: Deployment = { kind: 'container', framework: 'next', cdnEnabled: true };
const BROWSER_SETTING: CacheSetting = { layer: 'browser', deployment: DEPLOYMENT };
const LAYER_NAMES = ['edge', 'regional', 'origin'];

/** The version the origin had when it made a response: its ETag's, or for an error the x-origin-version field the reference adds. */
function originVersionOf(headers: ReadonlyMap<string, string>): number {
  const field = headers.get('x-origin-version');
  return field === undefined ? versionOf(headers) : Number(field);
}

/** A copy the next layer sent in place of an error it holds is held here too, until the same moment (spec 7.1). */
function heldAsUpstream(stored: StoredResponse, response: HttpResponse, nowMs: number): StoredResponse {
  const until = Number(response.headers.get('x-error-until') ?? -Infinity);
  return until > nowMs ? { ...stored, errorUntilMs: until } : stored;
}

/** The content version an ETag names ("v3" → 3). */
function versionOf(headers: ReadonlyMap<string, string>): number {
  const etag = headers.get('etag');
  return etag === undefined ? -1 : Number(/v(\d+)/.exec(etag)![1]);
}

/** The one event kind: a closure to run at its time (test code: clarity over speed). */
class Clock {
  readonly simulation = new Simulation();
  private readonly calls: (() => void)[] = [];
  private readonly kind = this.simulation.defineEvent('reference.call', (i) => {
    const call = this.calls[i];
    delete this.calls[i];
    call();
  });
  get nowMs(): number {
    return this.simulation.nowMs;
  }
  at(timeMs: number, call: () => void): void {
    this.calls.push(call);
    this.simulation.schedule(timeMs, this.kind, this.calls.length - 1);
  }
}

/** The origin (spec 4.9 layer 4) as the incidents make it, answering whole HTTP messages. */
class TimedOrigin {
  constructor(
    private readonly clock: Clock,
    private readonly scenario: ReferenceScenario,
    private readonly counters: ReferenceCounters['origin'],
  ) {}

  version(nowMs: number): number {
    return this.scenario.deploys.filter((deploy) => deploy.at <= nowMs).length;
  }

  /** When the current version appeared (−∞: never changed). */
  changedAtMs(nowMs: number): number {
    return Math.max(-Infinity, ...this.scenario.deploys.filter((deploy) => deploy.at <= nowMs).map((deploy) => deploy.at));
  }

  receive(fetch: Fetch): void {
    const { clock, scenario } = this;
    const nowMs = clock.nowMs;
    const back = scenario.hops.originHalfMs;
    this.counters.requests++;
    if (scenario.outages.some((o) => nowMs >= o.from && nowMs < o.to)) {
      // spec 4.7: a refused connection is known after one round trip.
      this.counters.refused++;
      clock.at(nowMs + back, () => fetch.node.fetchDone(fetch, { response: undefined, servedLayer: LAYER_ORIGIN, outcome: 0 }));
      return;
    }
    const respondedAtMs = nowMs + scenario.hops.serviceMs;
    const date = new Date(respondedAtMs).toUTCString();
    let response: HttpResponse;
    if (scenario.bursts.some((b) => nowMs >= b.from && nowMs < b.to)) {
      // spec 7.1: an error without freshness information; the engine decides its caching.
      this.counters.errors++;
      response = { status: 500, headers: new Map([['date', date], ['x-origin-version', String(this.version(nowMs))]]), body: 'error' };
    } else {
      const objectId = Number(/o(\d+)/.exec(fetch.url)![1]);
      const etag = `"v${this.version(nowMs)}"`;
      const headers = new Map([
        ['date', date],
        ['etag', etag],
        ['cache-control', scenario.classes[objectId % scenario.classes.length]],
      ]);
      if (fetch.request.headers.get('if-none-match') === etag) {
        this.counters.notModified++;
        response = { status: 304, headers, body: '' };
      } else response = { status: 200, headers, body: `v${this.version(nowMs)}` };
    }
    clock.at(respondedAtMs + back, () => fetch.node.fetchDone(fetch, { response, servedLayer: LAYER_ORIGIN, outcome: 0 }));
  }
}

/** A shared cache node (a PoP or the regional site): HttpCacheNode's rules, one message at a time. */
class TimedNode {
  private readonly entries = new Map<string, StoredResponse>();
  /** The fetch in flight per URL (the flow's InFlightIndex). */
  private readonly inFlight = new Map<string, Fetch>();
  private readonly setting: CacheSetting;

  constructor(
    private readonly clock: Clock,
    readonly layer: number,
    cacheLayer: CacheLayer,
    private readonly scenario: ReferenceScenario,
    private readonly counters: ReferenceCounters['layers'][number],
    /** Sends a fetch to the next layer (after the hop). */
    private readonly sendUpstream: (fetch: Fetch) => void,
    /** Answers a waiting fetch of the layer below (after the hop back). */
    private readonly answerDownstream: (fetch: Fetch, answer: Answer) => void,
    private readonly answerPiece: (request: PendingRequest, answer: Answer) => void,
  ) {
    this.setting = { layer: cacheLayer, deployment: DEPLOYMENT };
  }

  /** Versions below this one are purged here (spec 1.2 item 6): the latest purge that has reached this node. */
  private purgedBelowVersion = 0;

  /**
   * spec 1.2 item 6, purges by version (src/cdn/purge.ts): a purge that has reached this node
   * drops every copy of a version older than its deploy's, now and whenever one arrives later.
   */
  purge(belowVersion: number): void {
    this.purgedBelowVersion = Math.max(this.purgedBelowVersion, belowVersion);
    for (const [url, entry] of this.entries) if (this.isPurged(entry)) this.entries.delete(url);
  }

  /** Whether a copy (a 200, or a cached error, which carries the version the origin had) is of a purged version. */
  private isPurged(stored: StoredResponse): boolean {
    return originVersionOf(stored.headers) < this.purgedBelowVersion;
  }

  /** Stores unless a purge that has reached this node covers the copy's version. */
  private store(url: string, stored: StoredResponse): void {
    if (!this.isPurged(stored)) this.entries.set(url, stored);
  }

  /** Whether this layer stores the class's responses at all, as the engine decides on the origin's header fields. */
  private stores(url: string): boolean {
    const objectId = Number(/o(\d+)/.exec(url)![1]);
    const headers = new Map([['cache-control', this.scenario.classes[objectId % this.scenario.classes.length]], ['etag', '"v0"']]);
    return decide({ request: { method: 'GET', url, headers: new Map() }, response: { status: 200, headers }, deployment: DEPLOYMENT, layer: this.setting.layer, nowMs: this.clock.nowMs }).store;
  }

  /** A request (a client's piece, or a PoP's fetch) for `request.url` reaches this node. */
  lookup(waiter: Waiter, request: HttpRequest): void {
    const nowMs = this.clock.nowMs;
    const url = request.url;
    const entry = this.entries.get(url);
    let validates: StoredResponse | undefined;
    if (entry !== undefined) {
      const verdict = reuseVerdict(entry.freshness, nowMs);
      if (entry.status >= 500) {
        // spec 7.1: a cached error answers while fresh (5 s less its age).
        if (verdict.kind === 'fresh') return this.answerWaiter(waiter, { response: this.fromStored(waiter, entry), servedLayer: this.layer, outcome: OUTCOME_CACHED_ERROR }, entry);
      } else {
        if (verdict.kind === 'fresh') return this.answerWaiter(waiter, { response: this.fromStored(waiter, entry), servedLayer: this.layer, outcome: 0 }, entry);
        validates = hasValidator(entry.headers) ? entry : undefined;
        // spec 7.1: while an origin error is held beside the copy, nothing goes upstream.
        const held = entry.errorUntilMs !== undefined && nowMs < entry.errorUntilMs;
        if (verdict.kind === 'stale-while-revalidate') {
          // RFC 5861 §3: answered stale now; one background revalidation per node and key.
          this.answerWaiter(waiter, { response: this.fromStored(waiter, entry), servedLayer: this.layer, outcome: OUTCOME_STALE_WHILE_REVALIDATE }, entry);
          if (!held && !this.inFlight.has(url)) {
            this.counters.backgroundRevalidations++;
            this.startFetch(url, undefined, validates);
          }
          return;
        }
        // RFC 5861 §4: inside its 5xx window the copy answers in the held error's place.
        if (held && mayServeStaleOnError(entry.freshness, nowMs, 'error')) {
          return this.answerWaiter(waiter, { response: this.fromStored(waiter, entry), servedLayer: this.layer, outcome: OUTCOME_STALE_ON_ERROR }, entry);
        }
      }
    }
    // Only a response this layer may store answers other requests (RFC 9111 §3, §4); a held
    // entry (a cached error's retry) is waited for too.
    if (this.scenario.coalescing && (entry !== undefined || this.stores(url))) {
      const inFlight = this.inFlight.get(url);
      if (inFlight !== undefined) {
        inFlight.waiters.push(waiter);
        this.counters.coalesced++;
        markCoalesced(waiter, this.layer === LAYER_EDGE ? OUTCOME_COALESCED_EDGE : OUTCOME_COALESCED_REGIONAL);
        return;
      }
    }
    this.startFetch(url, waiter, validates);
  }

  private startFetch(url: string, waiter: Waiter | undefined, validates: StoredResponse | undefined): void {
    const plain: HttpRequest = { method: 'GET', url, headers: new Map() };
    // RFC 9111 §4.3.1: a stale response with a validator is validated with a conditional request.
    const request = validates === undefined ? plain : revalidationRequest(plain, validates);
    const fetch: Fetch = { node: this, url, request, sentAtMs: this.clock.nowMs, validates, waiters: waiter === undefined ? [] : [waiter] };
    this.counters.fetches++;
    this.inFlight.set(url, fetch);
    this.sendUpstream(fetch);
  }

  /** The answer to this node's fetch arrives: store by the engine's decision, then answer everyone waiting. */
  fetchDone(fetch: Fetch, answer: Answer): void {
    const nowMs = this.clock.nowMs;
    const url = fetch.url;
    if (this.inFlight.get(url) === fetch) this.inFlight.delete(url);
    const entry = this.entries.get(url);
    const response = answer.response;
    let outcome = answer.outcome;
    let served: StoredResponse | undefined;
    if (response !== undefined && response.status < 500) {
      if (response.status === 304 || (fetch.validates !== undefined && versionOf(response.headers) === versionOf(fetch.validates.headers))) {
        outcome |= OUTCOME_REVALIDATED;
        this.counters.notModified++;
      }
      if (response.status === 304) {
        // RFC 9111 §4.3.4: the stored response is refreshed (its age counts from this fetch's
        // request time). One no longer stored (purged meanwhile) is not stored again, as in
        // HttpCacheNode; the waiters get the copy the 304 confirmed.
        const stored = entry !== undefined && entry.status < 500 && versionOf(entry.headers) === versionOf(response.headers);
        const base = stored ? entry : fetch.validates!;
        served = refreshedStored(this.setting, base, fetch.request, mergeNotModified(base.headers, response.headers), nowMs, fetch.sentAtMs);
        if (stored) this.store(url, (served = heldAsUpstream(served, response, nowMs)));
      } else {
        const received = receiveResponse(this.setting, fetch.request, response, entry, FETCH_WHOLE, nowMs, fetch.sentAtMs);
        served = received.store === undefined ? undefined : heldAsUpstream(received.store, response, nowMs);
        if (served !== undefined) this.store(url, served);
        else if (received.dropPrevious) this.entries.delete(url);
      }
    } else if (entry !== undefined && entry.status < 500 && mayServeStaleOnError(entry.freshness, nowMs, response === undefined ? 'unreachable' : 'error')) {
      // spec 4.7 row 1, RFC 5861 §4: the last good version instead of the error, which is not
      // stored over it but held beside it for its own lifetime (spec 7.1: origin protection).
      served = entry;
      if (response !== undefined) {
        const decision = decideStored(this.setting, fetch.request, response, nowMs, fetch.sentAtMs);
        if (decision.store) this.entries.set(url, (served = { ...entry, errorUntilMs: nowMs + decision.ttlSeconds * 1000 }));
      }
      answer = { response: undefined, servedLayer: this.layer, outcome: 0 };
      outcome = (outcome & ~OUTCOME_CACHED_ERROR) | (response === undefined ? OUTCOME_STALE_ON_REFUSED : OUTCOME_STALE_ON_ERROR);
    } else if (response !== undefined) {
      // spec 7.1: the engine caches an error without freshness information for 5 s, less its age.
      const received = receiveResponse(this.setting, fetch.request, response, entry, FETCH_WHOLE, nowMs, fetch.sentAtMs);
      if (received.store) this.store(url, received.store);
      served = received.store;
    }
    for (const waiter of fetch.waiters) {
      const passed = served === undefined ? this.passed(response, fetch, nowMs) : this.fromStored(waiter, served);
      this.answerWaiter(waiter, { response: passed, servedLayer: answer.servedLayer, outcome }, served);
    }
  }

  /** A response this node does not store, passed on with the age it has here (RFC 9111 §5.1). */
  private passed(response: HttpResponse | undefined, fetch: Fetch, nowMs: number): HttpResponse | undefined {
    if (response === undefined) return undefined;
    const age = Number(response.headers.get('age') ?? 0) + (nowMs - fetch.sentAtMs) / 1000;
    return { ...response, headers: new Map([...response.headers, ['age', String(Math.floor(age))]]) };
  }

  /**
   * The stored response as it answers this waiter: a 304 when a PoP's conditional fetch names
   * it (RFC 9111 §4.3.2). To a PoP it also says until when an origin error is held beside it
   * (x-error-until, the reference's own field: the flow hands the PoP that moment, spec 7.1).
   */
  private fromStored(waiter: Waiter, stored: StoredResponse): HttpResponse {
    const request: HttpRequest = waiter.kind === 'fetch' ? waiter.fetch.request : { method: 'GET', url: '', headers: new Map() };
    const answer = answerFromStored(request, stored, this.clock.nowMs, {});
    if (answer.kind === 'fetch') throw new Error('a whole stored response cannot ask for a fetch');
    if (waiter.kind !== 'fetch' || stored.errorUntilMs === undefined || !(stored.errorUntilMs > this.clock.nowMs)) return answer.response;
    return { ...answer.response, headers: new Map([...answer.response.headers, ['x-error-until', String(stored.errorUntilMs)]]) };
  }

  private answerWaiter(waiter: Waiter, answer: Answer, stored: StoredResponse | undefined): void {
    if (waiter.kind === 'fetch') return this.answerDownstream(waiter.fetch, answer);
    // A client's piece: the response's version is what is stored (or passed on) here.
    const version = stored !== undefined ? versionOf(stored.headers) : answer.response === undefined ? -1 : versionOf(answer.response.headers);
    this.answerPiece(waiter.request, { ...answer, response: answer.response === undefined ? undefined : { ...answer.response, headers: new Map([...answer.response.headers, ['x-version', String(version)]]) } });
  }
}

/** Marks the request, or the requests waiting on a PoP's fetch, as coalesced at this layer (as the flow counts it). */
function markCoalesced(waiter: Waiter, bit: number): void {
  if (waiter.kind === 'piece') waiter.request.outcome |= bit;
  else for (const w of waiter.fetch.waiters) if (w.kind === 'piece') w.request.outcome |= bit;
}

/** Runs `requests` (in time order) through the reference; returns a record per request, in order, and the counters. */
export function runReference(scenario: ReferenceScenario, requests: readonly ReferenceRequest[]): { records: ReferenceRecord[]; counters: ReferenceCounters } {
  const clock = new Clock();
  const counters: ReferenceCounters = {
    layers: [0, 1].map(() => ({ coalesced: 0, fetches: 0, backgroundRevalidations: 0, notModified: 0 })),
    origin: { requests: 0, refused: 0, errors: 0, notModified: 0 },
  };
  const origin = new TimedOrigin(clock, scenario, counters.origin);
  const { hops } = scenario;
  const finishPiece = (request: PendingRequest, answer: Answer): void => {
    const nowMs = clock.nowMs;
    // A refused connection reaches the client as 502 (spec 4.7).
    const status = answer.response === undefined ? 502 : answer.response.status;
    const version = answer.response === undefined ? -1 : Number(answer.response.headers.get('x-version'));
    request.doneAtMs = Math.max(request.doneAtMs, nowMs);
    request.layer = Math.max(request.layer, answer.servedLayer);
    request.outcome |= answer.outcome;
    request.response = answer.response;
    if (status !== 200 && status !== 304) request.status = status;
    if (status === 200 || status === 304) request.version = Math.min(request.version, version);
    if (--request.piecesLeft > 0) return;
    const record = request.record;
    record.layer = LAYER_NAMES[request.layer];
    record.latencyMs = request.doneAtMs + hops.clientLegMs - request.sentMs;
    record.status = request.status;
    record.outcome = request.outcome;
    const ok = request.status === 200;
    record.staleForMs = ok && request.version < origin.version(request.doneAtMs) ? request.doneAtMs - origin.changedAtMs(request.doneAtMs) : -1;
    // spec 4.9 layer 1: the browser stores by the engine's browser decision; its age is the
    // PoP's Age plus its own wait (RFC 9111 §4.2.3), the response reaching it when the PoP sent it.
    if (ok && request.browser !== undefined && request.response !== undefined) {
      const received = receiveResponse(BROWSER_SETTING, { method: 'GET', url: request.url, headers: new Map() }, request.response, request.browser.get(request.url), FETCH_WHOLE, nowMs, request.sentMs);
      if (received.store) request.browser.set(request.url, received.store);
    }
  };
  const regional: TimedNode = new TimedNode(
    clock,
    LAYER_REGIONAL,
    'regional',
    scenario,
    counters.layers[1],
    (fetch) => clock.at(clock.nowMs + hops.originHalfMs, () => origin.receive(fetch)),
    (fetch, answer) => clock.at(clock.nowMs + hops.regionalHalfMs, () => fetch.node.fetchDone(fetch, answer)),
    finishPiece,
  );
  const edges = Array.from(
    { length: scenario.edges },
    () =>
      new TimedNode(
        clock,
        LAYER_EDGE,
        'edge',
        scenario,
        counters.layers[0],
        (fetch) => clock.at(clock.nowMs + hops.regionalHalfMs, () => regional.lookup({ kind: 'fetch', fetch }, fetch.request)),
        () => {
          throw new Error('a PoP has no layer below it');
        },
        finishPiece,
      ),
  );
  const records: ReferenceRecord[] = [];
  const browsers = new Map<number, Map<string, StoredResponse>>();
  for (const sent of requests) {
    const record: ReferenceRecord = { layer: '', latencyMs: -1, status: 200, outcome: 0, staleForMs: -1 };
    records.push(record);
    clock.at(sent.timeMs, () => {
      const pieces = sent.pieces ?? 1;
      const url = `/objects/o${sent.objectId}`;
      let browser: Map<string, StoredResponse> | undefined;
      if (scenario.browsers && sent.client !== undefined && sent.firstChunk === undefined) {
        browser = browsers.get(sent.client) ?? new Map<string, StoredResponse>();
        browsers.set(sent.client, browser);
        const stored = browser.get(url);
        // A browser answers only from a fresh copy (the flow's browser: fresh or not); 0 ms (DESIGN "Metrics").
        if (stored !== undefined && reuseVerdict(stored.freshness, sent.timeMs).kind === 'fresh') {
          Object.assign(record, { layer: 'browser', latencyMs: 0, status: 200, outcome: 0, staleForMs: -1 });
          return;
        }
      }
      const request: PendingRequest = { sentMs: sent.timeMs, browser, url, response: undefined, objectId: sent.objectId, piecesLeft: pieces, layer: LAYER_EDGE, outcome: 0, status: 200, version: 2 ** 31 - 1, doneAtMs: sent.timeMs, record };
      const edge = edges[sent.region % edges.length];
      for (let p = 0; p < pieces; p++) {
        const pieceUrl = sent.firstChunk === undefined ? url : `${url}/chunk${sent.firstChunk + p}`;
        edge.lookup({ kind: 'piece', request }, { method: 'GET', url: pieceUrl, headers: new Map() });
      }
    });
  }
  scenario.deploys.forEach((deploy, i) => {
    // The deploy makes version i + 1 (deploys are in time order): its purge drops the older ones.
    if (deploy.purge) clock.at(deploy.at + scenario.purgeDelayMs, () => [regional, ...edges].forEach((node) => node.purge(i + 1)));
  });
  clock.simulation.run();
  return { records, counters };
}
