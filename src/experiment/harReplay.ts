import { HttpCacheNode, type HttpRequest, type HttpResponse, type NodeOutcome } from '../cdn/httpCacheNode.js';
import { decide, type CacheDecision } from '../policy/decision.js';
import type { CacheLayer, Deployment, PolicyOptions } from '../policy/deployment.js';
import { normaliseHeaders } from '../policy/headers.js';
import { formatHttpDate, parseHttpDate } from '../policy/httpDate.js';
import { conditionalRequestMatches } from '../policy/revalidation.js';
import { formatReason } from '../policy/reason.js';
import { readResponseFacts } from '../policy/responseFacts.js';
import type { TrafficRecord } from '../recorded/realTraffic/trafficRecord.js';

/**
 * Replays a HAR page load (records from readHar) through the exact, header-level cache
 * nodes: a browser (private cache), an edge and a regional node (shared caches), in that
 * order (spec 4.9), in front of an origin that answers every request with the response the
 * HAR recorded for its URL. One or more visits replay the whole page, `intervalMs` apart.
 *
 * Choices, each one of reading a HAR rather than of caching:
 * - Request fields the recording browser's own cache and DevTools added are dropped:
 *   If-None-Match/If-Modified-Since/If-Match/If-Unmodified-Since/If-Range (its validators)
 *   and Cache-Control/Pragma (its reload or "Disable cache" mode). The simulated browser
 *   node plays that role now. Cookie and Authorization are kept: the engine reads them.
 *   HTTP/2 pseudo-headers are already gone (the reader drops them, RFC 9113 §8.3).
 * - The origin never sends the recorded `Age` (a cache adds Age, RFC 9111 §5.1; the recorded
 *   one is the real CDN's); it dates its answer `now` (RFC 9110 §6.6.1) and moves Expires
 *   with it, keeping the lifetime Expires − Date it recorded.
 * - The host is not part of a cache key (one CDN per deployment, src/policy/cacheKey.ts),
 *   so every host in the HAR gets its own browser, edge and regional node: a third-party
 *   script is cached as if its host sat behind the same kind of CDN.
 * - Recorded 304s are the recording browser's revalidations, not what the origin serves: a
 *   URL answers with its other records; a URL the HAR holds only as 304s answers with a 200
 *   made of the 304's header fields (RFC 9110 §15.4.5 makes a 304 carry the caching fields
 *   of the 200) and the size of the body the browser had cached; `standIns` lists those.
 * - Exchanges take no simulated time: what the replay measures is which layer answers.
 */
export interface HarReplayOptions {
  readonly deployment: Deployment;
  /** Page loads, ≥ 1. */
  readonly visits: number;
  /** From one visit's start to the next, ≥ 0. */
  readonly intervalMs: number;
  /** Each visit after the first by a new client: an empty browser cache, the same warm CDN. */
  readonly newClientPerVisit: boolean;
  readonly policy?: PolicyOptions;
  /** Called every few hundred requests, for a progress bar: requests replayed of all visits' requests. */
  readonly onProgress?: (replayed: number, total: number) => void;
}

/** Who answered a request: a cache's stored copy (fresh, stale or just revalidated) or the origin. */
export type ServingLayer = 'browser' | 'edge' | 'regional' | 'origin';
export const SERVING_LAYERS: readonly ServingLayer[] = ['browser', 'edge', 'regional', 'origin'];
/** Who answered a cache's conditional request with 304 Not Modified. */
export type RevalidatingLayer = 'edge' | 'regional' | 'origin';
export const REVALIDATING_LAYERS: readonly RevalidatingLayer[] = ['edge', 'regional', 'origin'];

export interface VisitSummary {
  /** From the first visit's start. */
  readonly startMs: number;
  /** Whether this visit's browser cache started empty. */
  readonly newClient: boolean;
  readonly requests: number;
  readonly servedBy: Readonly<Record<ServingLayer, number>>;
  /** Requests served from a cache after a 304 from this layer. */
  readonly revalidated: Readonly<Record<RevalidatingLayer, number>>;
  /** Every request that reached the origin, background revalidations and 304s included. */
  readonly originRequests: number;
  /** Response body bytes the origin sent. */
  readonly originBytes: number;
  /** Response body bytes that crossed the client's connection (from the edge to the browser). */
  readonly clientBytes: number;
}

export interface EntryVisit {
  readonly servedBy: ServingLayer;
  readonly revalidatedAt: RevalidatingLayer | null;
  /** Served stale: within stale-while-revalidate, or because the origin failed (spec 4.7). */
  readonly stale: boolean;
  /** The status the client received. */
  readonly status: number;
}

/** What the policy engine decides about an entry's origin response at one layer. */
export interface LayerVerdict {
  readonly cacheable: boolean;
  /** How long it may be served without asking the origin (lifetime − age), ms precision. */
  readonly ttlSeconds: number;
  /** The decisive rule, as `cdnsim explain` prints reasons: "rule (source)". */
  readonly reason: string;
}

export interface EntryReplay {
  /** Index in the HAR's log.entries. */
  readonly entry: number;
  readonly method: string;
  readonly url: string;
  /** The recorded status (a 304 is the recording browser's revalidation). */
  readonly status: number;
  readonly bodyBytes: number;
  /** One per visit, in visit order. */
  readonly visits: readonly EntryVisit[];
  readonly browser: LayerVerdict;
  readonly edge: LayerVerdict;
}

/** A URL the HAR holds only as 304s, answered with a 200 built from the first of them. */
export interface StandIn {
  readonly method: string;
  readonly url: string;
  readonly entry: number;
}

export interface HarReplayResult {
  readonly deployment: Deployment;
  /** When the first request (by start time) was recorded, ms since the epoch. */
  readonly recordedStartMs: number;
  /** The host of that first request: the page. */
  readonly pageHost: string;
  readonly visits: readonly VisitSummary[];
  /** In start-time order (stable for equal times). */
  readonly entries: readonly EntryReplay[];
  /** Recorded 304s, not used as origin responses. */
  readonly recordedNotModified: number;
  readonly standIns: readonly StandIn[];
}

export function replayHar(records: readonly TrafficRecord[], options: HarReplayOptions): HarReplayResult {
  checkOptions(options);
  if (records.length === 0) throw new RangeError('replayHar: no records');
  // Array.prototype.sort is stable: equal start times keep their file order.
  const ordered = [...records].sort((a, b) => a.epochMs - b.epochMs);
  const recordedStartMs = ordered[0].epochMs;
  const clock = { nowMs: recordedStartMs };
  const now = (): number => clock.nowMs;
  const origin = new RecordedOrigin(ordered);
  const requests = ordered.map(replayedRequest);
  const network = new SimulatedNetwork(options, origin, now);

  const visitStartMs = (visit: number): number => visit * options.intervalMs;
  const events: { atMs: number; visit: number; index: number }[] = [];
  for (let visit = 0; visit < options.visits; visit++) {
    ordered.forEach((record, index) => events.push({ atMs: visitStartMs(visit) + (record.epochMs - recordedStartMs), visit, index }));
  }
  // Visits closer together than the page load lasts interleave, in time order.
  events.sort((a, b) => a.atMs - b.atMs || a.visit - b.visit || a.index - b.index);

  const outcomes: EntryVisit[][] = ordered.map(() => []);
  const tallies = Array.from({ length: options.visits }, (_, visit) => new VisitTally(visitStartMs(visit), visit > 0 && options.newClientPerVisit));
  for (let done = 0; done < events.length; done++) {
    const event = events[done];
    if (done % PROGRESS_EVERY === 0) options.onProgress?.(done, events.length);
    clock.nowMs = recordedStartMs + event.atMs;
    const client = options.newClientPerVisit ? event.visit : 0;
    const hop = network.request(client, requests[event.index]);
    const served = classify(hop);
    outcomes[event.index][event.visit] = served;
    tallies[event.visit].add(served, hop, origin);
  }

  const entries = ordered.map((record, index): EntryReplay => {
    const response = origin.responseFor(origin.standInFor(record), record.epochMs);
    const verdict = (layer: CacheLayer): LayerVerdict => layerVerdict(requests[index], response, layer, record.epochMs, options);
    return {
      entry: record.source.entry ?? index,
      method: record.method,
      url: record.url,
      status: record.status,
      bodyBytes: record.bodyBytes,
      visits: outcomes[index],
      browser: verdict('browser'),
      edge: verdict('edge'),
    };
  });
  return {
    deployment: options.deployment,
    recordedStartMs,
    pageHost: new URL(ordered[0].url).host,
    visits: tallies.map((tally) => tally.summary()),
    entries,
    recordedNotModified: ordered.filter((record) => record.status === 304).length,
    standIns: origin.standIns(),
  };
}

/** Requests between progress calls: often enough for a bar at 10 frames a second, rare enough to cost nothing. */
const PROGRESS_EVERY = 256;

function checkOptions(options: HarReplayOptions): void {
  if (!(Number.isInteger(options.visits) && options.visits >= 1)) throw new RangeError(`replayHar: visits must be a whole number ≥ 1, got ${options.visits}`);
  if (!(Number.isFinite(options.intervalMs) && options.intervalMs >= 0)) throw new RangeError(`replayHar: intervalMs must be ≥ 0, got ${options.intervalMs}`);
}

// ---------------------------------------------------------------------------------------
// Requests as the page makes them

/** Fields the recording browser's cache and DevTools added; the simulated browser node adds its own. */
const BROWSER_CACHE_REQUEST_FIELDS = new Set(['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'cache-control', 'pragma']);

function replayedRequest(record: TrafficRecord): HttpRequest {
  const headers = normaliseHeaders(record.requestHeaders.filter(([name]) => !BROWSER_CACHE_REQUEST_FIELDS.has(name.trim().toLowerCase())));
  return { method: record.method, url: record.url, headers };
}

// ---------------------------------------------------------------------------------------
// The origin: the recorded responses

/** Bodies are tokens naming a record, so that sizes need no real bytes; '' is no body. */
const BODY_TOKEN_PREFIX = 'har-record:';

/** Whether a response with this status has a body (RFC 9110 §6.4.1: 1xx, 204 and 304 never do). */
function statusHasBody(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 304;
}

/** Fields a 304 carries (RFC 9110 §15.4.5), with Last-Modified and CDN-Cache-Control, which guide cache updates too. */
const NOT_MODIFIED_FIELDS = ['cache-control', 'cdn-cache-control', 'content-location', 'date', 'etag', 'expires', 'last-modified', 'vary'];

/**
 * Answers each request with the records of its (method, URL) in order, the last repeating;
 * recorded 304s are left out (see replayHar). Conditional requests from the caches get a
 * 304 when the record's validators match (RFC 9110 §13.1.2, §13.1.3).
 */
class RecordedOrigin {
  private readonly sequences = new Map<string, TrafficRecord[]>();
  private readonly served = new Map<string, number>();
  private readonly bodyBytes = new Map<string, number>();
  private readonly builtFromNotModified: TrafficRecord[] = [];
  private readonly recordIds = new Map<TrafficRecord, number>();

  constructor(records: readonly TrafficRecord[]) {
    const notModifiedOnly = new Map<string, TrafficRecord>();
    for (const record of records) {
      const key = originKey(record.method, record.url);
      if (record.status === 304) {
        if (!notModifiedOnly.has(key)) notModifiedOnly.set(key, record);
        continue;
      }
      this.register(key, record);
    }
    for (const [key, notModified] of notModifiedOnly) {
      if (this.sequences.has(key)) continue;
      const standIn: TrafficRecord = { ...notModified, status: 200 };
      this.builtFromNotModified.push(notModified);
      this.register(key, standIn);
    }
  }

  /** The body bytes of a response a node handed on: its token's record size, 0 without a body. */
  bytesOf(response: HttpResponse): number {
    return this.bodyBytes.get(response.body) ?? 0;
  }

  /** The record the origin first answers this entry's request with. */
  standInFor(record: TrafficRecord): TrafficRecord {
    return record.status === 304 ? (this.sequenceFor(record.method, record.url)?.[0] ?? record) : record;
  }

  standIns(): StandIn[] {
    return this.builtFromNotModified.map((record) => ({ method: record.method, url: record.url, entry: record.source.entry ?? 0 }));
  }

  answer(request: HttpRequest, nowMs: number): HttpResponse {
    const sequence = this.sequenceFor(request.method, request.url);
    // Only the entries' own requests reach the origin (a HEAD a cache forwards is answered from the GET record when none was recorded).
    if (sequence === undefined) return { status: 404, headers: new Map([['content-type', 'text/plain']]), body: '' };
    const key = originKey(request.method, request.url);
    const count = this.served.get(key) ?? 0;
    this.served.set(key, count + 1);
    const record = sequence[Math.min(count, sequence.length - 1)];
    const response = this.responseFor(record, nowMs);
    // Preconditions apply to what would be a 2xx answer (RFC 9110 §13.2.1).
    if (response.status >= 200 && response.status < 300 && conditionalRequestMatches(request.headers, response.headers, nowMs)) {
      const headers = new Map<string, string>();
      for (const name of NOT_MODIFIED_FIELDS) {
        const value = response.headers.get(name);
        if (value !== undefined) headers.set(name, value);
      }
      return { status: 304, headers, body: '' };
    }
    return request.method.toUpperCase() === 'HEAD' ? { ...response, body: '' } : response;
  }

  /** A record as the origin sends it at `nowMs`: no Age, Date now, Expires moved with it. */
  responseFor(record: TrafficRecord, nowMs: number): HttpResponse {
    const recorded = normaliseHeaders(record.responseHeaders);
    const headers = new Map(recorded);
    headers.delete('age');
    const recordedDateMs = dateOf(recorded.get('date'), record.epochMs);
    const expiresMs = dateOf(recorded.get('expires'), record.epochMs);
    // Expires − Date is the lifetime the origin gave (the recorded Date may be hours old when
    // the real CDN answered from its cache); without Date, Expires moves with the request.
    if (recordedDateMs !== undefined) {
      headers.set('date', formatHttpDate(nowMs));
      if (expiresMs !== undefined) headers.set('expires', formatHttpDate(nowMs + expiresMs - recordedDateMs));
    } else if (expiresMs !== undefined && nowMs !== record.epochMs) {
      headers.set('expires', formatHttpDate(expiresMs + nowMs - record.epochMs));
    }
    const body = statusHasBody(record.status) ? `${BODY_TOKEN_PREFIX}${this.idOf(record)}` : '';
    return { status: record.status, headers, body };
  }

  private register(key: string, record: TrafficRecord): void {
    const sequence = this.sequences.get(key);
    if (sequence) sequence.push(record);
    else this.sequences.set(key, [record]);
    this.idOf(record);
  }

  private idOf(record: TrafficRecord): number {
    let id = this.recordIds.get(record);
    if (id === undefined) {
      id = this.recordIds.size;
      this.recordIds.set(record, id);
      this.bodyBytes.set(`${BODY_TOKEN_PREFIX}${id}`, record.bodyBytes);
    }
    return id;
  }

  private sequenceFor(method: string, url: string): TrafficRecord[] | undefined {
    const upper = method.toUpperCase();
    const own = this.sequences.get(originKey(upper, url));
    if (own !== undefined) return own;
    // A HEAD recorded without its GET (or the reverse) is answered from the other's record.
    if (upper === 'HEAD') return this.sequences.get(originKey('GET', url));
    if (upper === 'GET') return this.sequences.get(originKey('HEAD', url));
    return undefined;
  }
}

function originKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url}`;
}

function dateOf(value: string | undefined, referenceMs: number): number | undefined {
  return value === undefined ? undefined : parseHttpDate(value, referenceMs);
}


// ---------------------------------------------------------------------------------------
// The layers, traced

/** One layer's answer to one request, with the requests it sent to the next layer. */
interface Hop {
  readonly layer: ServingLayer;
  readonly outcome: NodeOutcome | 'origin';
  readonly response: HttpResponse;
  /** In order; after a stale-while-revalidate answer, the one background revalidation. */
  readonly upstream: readonly Hop[];
}

type Layer = (request: HttpRequest) => Hop;

/** A cache node whose calls to the next layer are recorded on the hop it answers with. */
function tracedNode(layer: CacheLayer, next: Layer, options: HarReplayOptions, now: () => number): Layer {
  let calls: Hop[] = [];
  const node = new HttpCacheNode({
    layer,
    deployment: options.deployment,
    policy: options.policy,
    now,
    upstream: (request) => {
      const hop = next(request);
      calls.push(hop);
      return hop.response;
    },
  });
  return (request) => {
    const outer = calls;
    calls = [];
    try {
      const answer = node.handle(request);
      return { layer, outcome: answer.outcome, response: answer.response, upstream: calls };
    } finally {
      calls = outer;
    }
  };
}

/** Browsers per client and host; one edge and one regional node per host (the host is not in the key). */
class SimulatedNetwork {
  private readonly cdn = new Map<string, Layer>();
  private readonly browsers = new Map<string, Layer>();
  private readonly origin: Layer;

  constructor(
    private readonly options: HarReplayOptions,
    recordedOrigin: RecordedOrigin,
    private readonly now: () => number,
  ) {
    this.origin = (request) => ({ layer: 'origin', outcome: 'origin', response: recordedOrigin.answer(request, now()), upstream: [] });
  }

  request(client: number, request: HttpRequest): Hop {
    const host = new URL(request.url).host;
    const browserKey = `${client} ${host}`;
    let browser = this.browsers.get(browserKey);
    if (browser === undefined) {
      browser = tracedNode('browser', this.edgeFor(host), this.options, this.now);
      this.browsers.set(browserKey, browser);
    }
    return browser(request);
  }

  private edgeFor(host: string): Layer {
    let edge = this.cdn.get(host);
    if (edge === undefined) {
      const regional = tracedNode('regional', this.origin, this.options, this.now);
      edge = tracedNode('edge', regional, this.options, this.now);
      this.cdn.set(host, edge);
    }
    return edge;
  }
}

// ---------------------------------------------------------------------------------------
// Who served it

/** Outcomes where a node answers from its own stored copy. */
const SERVED_FROM_STORE = new Set<NodeOutcome | 'origin'>(['hit', 'stale-while-revalidate', 'stale-on-error', 'revalidated', 'not-modified-to-client', 'gateway-timeout']);

/**
 * The first layer on the request's way in that answered from its store (or the origin),
 * and, when that copy was revalidated first, the deepest layer that answered the 304.
 */
function classify(browserHop: Hop): EntryVisit {
  const chain: Hop[] = [];
  for (let hop: Hop | undefined = browserHop; hop !== undefined; hop = hop.outcome === 'stale-while-revalidate' ? undefined : hop.upstream[0]) chain.push(hop);
  const servingIndex = chain.findIndex((hop) => hop.outcome === 'origin' || SERVED_FROM_STORE.has(hop.outcome));
  const serving = chain[servingIndex];
  let revalidatedAt: RevalidatingLayer | null = null;
  if (serving.outcome === 'revalidated') {
    for (const hop of chain.slice(servingIndex + 1)) if (hop.response.status === 304 && hop.layer !== 'browser') revalidatedAt = hop.layer;
  }
  return {
    servedBy: serving.layer,
    revalidatedAt,
    stale: serving.outcome === 'stale-while-revalidate' || serving.outcome === 'stale-on-error',
    status: browserHop.response.status,
  };
}

class VisitTally {
  private requests = 0;
  private readonly servedBy: Record<ServingLayer, number> = { browser: 0, edge: 0, regional: 0, origin: 0 };
  private readonly revalidated: Record<RevalidatingLayer, number> = { edge: 0, regional: 0, origin: 0 };
  private originRequests = 0;
  private originBytes = 0;
  private clientBytes = 0;

  constructor(
    private readonly startMs: number,
    private readonly newClient: boolean,
  ) {}

  add(visit: EntryVisit, browserHop: Hop, origin: RecordedOrigin): void {
    this.requests++;
    this.servedBy[visit.servedBy]++;
    if (visit.revalidatedAt !== null) this.revalidated[visit.revalidatedAt]++;
    for (const edgeHop of browserHop.upstream) this.clientBytes += origin.bytesOf(edgeHop.response);
    const visitOrigin = (hop: Hop): void => {
      if (hop.layer === 'origin') {
        this.originRequests++;
        this.originBytes += origin.bytesOf(hop.response);
      }
      hop.upstream.forEach(visitOrigin);
    };
    visitOrigin(browserHop);
  }

  summary(): VisitSummary {
    return {
      startMs: this.startMs,
      newClient: this.newClient,
      requests: this.requests,
      servedBy: { ...this.servedBy },
      revalidated: { ...this.revalidated },
      originRequests: this.originRequests,
      originBytes: this.originBytes,
      clientBytes: this.clientBytes,
    };
  }
}

// ---------------------------------------------------------------------------------------
// What the engine says about each entry

function layerVerdict(request: HttpRequest, response: HttpResponse, layer: CacheLayer, nowMs: number, options: HarReplayOptions): LayerVerdict {
  const decision = decide({ request, response, deployment: options.deployment, layer, nowMs, options: options.policy });
  const hasNoCacheFields = readResponseFacts(response, layer, nowMs).cacheControl.noCacheFields !== undefined;
  return { cacheable: decision.store, ttlSeconds: Math.round(decision.ttlSeconds * 1000) / 1000, reason: formatReason(decisiveReason(decision, hasNoCacheFields)) };
}

/**
 * The reason that decided: for a response not stored, the last one (the engine stops at the
 * rule that refuses); for a stored one, the rule that set its lifetime, or `no-cache` when
 * every reuse is revalidated. decide() adds the lifetime's reason and then, in this order,
 * one reason per flag below; counting them from the end finds it.
 */
function decisiveReason(decision: CacheDecision, hasNoCacheFields: boolean): CacheDecision['reasons'][number] {
  const reasons = decision.reasons;
  const last = reasons[reasons.length - 1];
  if (!decision.store) return last;
  const after = [
    decision.revalidateAlways,
    hasNoCacheFields,
    decision.neverServeStale,
    decision.initialAgeSeconds > 0,
    decision.staleWhileRevalidateSeconds > 0,
    // One reason for the 5xx window, or for its absence where an outage would still be served stale (shared layers).
    decision.staleIfErrorSeconds > 0 || (decision.layer !== 'browser' && decision.staleIfUnreachableSeconds > 0),
    decision.staleIfUnreachableSeconds > 0,
    decision.immutable,
  ].filter(Boolean).length;
  const lifetimeIndex = reasons.length - 1 - after;
  return reasons[decision.revalidateAlways ? lifetimeIndex + 1 : lifetimeIndex] ?? last;
}
