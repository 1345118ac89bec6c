import { cacheKey } from '../policy/cacheKey.js';
import { decide, type CacheDecision } from '../policy/decision.js';
import { isSharedLayer, type CacheLayer, type Deployment, type PolicyOptions } from '../policy/deployment.js';
import { currentAgeSeconds } from '../policy/freshness.js';
import type { HeaderFields } from '../policy/headers.js';
import { readResponseFacts } from '../policy/responseFacts.js';
import { reason, type PolicyReason } from '../policy/reason.js';
import { errorMayReplaceStored, mayServeStaleOnError, requestCacheControl, reuseVerdict, type StoredFreshness } from '../policy/reuse.js';
import {
  conditionalRequestHeaders,
  conditionalRequestMatches,
  hasValidator,
  invalidatedUrls,
  mergeNotModified,
  notModifiedSelects,
  storedHeaderFields,
} from '../policy/revalidation.js';
import type { VariantRules } from '../policy/variants.js';
import { sameVariant, varyMatches, type VaryingResponse } from '../policy/vary.js';

/**
 * One cache node that works on whole HTTP messages (header fields and a body), running the
 * policy engine on every exchange. It is the exact, slow path: `cdnsim explain`-style
 * questions, HAR replay and the HTTP caching conformance run use it. The simulator's hot
 * path uses compiled decisions and typed-array stores instead (DESIGN "Hot path").
 */
export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderFields;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: HeaderFields;
  readonly body: string;
}

/** The next layer: another node, or the origin. `undefined` means it could not be reached (spec 4.7). */
export type Upstream = (request: HttpRequest) => HttpResponse | undefined;

/** How the node answered (for metrics and explanations). */
export type NodeOutcome =
  | 'hit'
  | 'stale-while-revalidate'
  | 'revalidated'
  | 'stale-on-error'
  | 'miss'
  | 'pass'
  | 'not-modified-to-client'
  | 'gateway-timeout';

export interface NodeAnswer {
  readonly response: HttpResponse;
  readonly outcome: NodeOutcome;
  readonly reasons: readonly PolicyReason[];
}

export interface HttpCacheNodeOptions {
  readonly layer: CacheLayer;
  readonly deployment: Deployment;
  readonly upstream: Upstream;
  /** The simulated clock, in ms since the epoch. */
  readonly now: () => number;
  readonly policy?: PolicyOptions;
  readonly variants?: VariantRules;
}

interface StoredEntry {
  readonly requestHeaders: HeaderFields;
  status: number;
  headers: HeaderFields;
  body: string;
  freshness: StoredFreshness;
  decision: CacheDecision;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const BAD_GATEWAY: HttpResponse = { status: 502, headers: new Map([['content-type', 'text/plain']]), body: 'origin unreachable' };
const GATEWAY_TIMEOUT: HttpResponse = { status: 504, headers: new Map([['content-type', 'text/plain']]), body: 'only-if-cached and nothing stored' };

export class HttpCacheNode {
  /** Stored responses by cache key; several per key when they vary (RFC 9111 §4.1). */
  private readonly entries = new Map<string, StoredEntry[]>();
  /** Cache keys by URL (path + sorted query) so invalidation reaches every variant (RFC 9111 §4.4). */
  private readonly keysByUrl = new Map<string, Set<string>>();

  constructor(private readonly options: HttpCacheNodeOptions) {}

  get storedCount(): number {
    let count = 0;
    for (const list of this.entries.values()) count += list.length;
    return count;
  }

  handle(request: HttpRequest): NodeAnswer {
    const method = request.method.toUpperCase();
    if (!SAFE_METHODS.has(method)) return this.passUnsafe(request);
    if (method !== 'GET' && method !== 'HEAD') return this.pass(request, reason('RFC 9111 §3', `${method} is passed through`));
    const key = this.keyOf(request);
    const entry = this.select(key.key, request);
    const clientDirectives = requestCacheControl(request.headers);
    if (!entry) {
      if (clientDirectives.cacheControl.onlyIfCached) {
        return { response: GATEWAY_TIMEOUT, outcome: 'gateway-timeout', reasons: [reason('RFC 9111 §5.2.1.7', 'only-if-cached and no stored response')] };
      }
      return this.fetchAndStore(request, key, undefined, 'miss', []);
    }
    const now = this.options.now();
    const verdict = reuseVerdict(entry.freshness, now, clientDirectives);
    if (verdict.kind === 'fresh') return this.serveStored(request, entry, 'hit', [verdict.reason]);
    if (verdict.kind === 'stale-while-revalidate') {
      const answer = this.serveStored(request, entry, 'stale-while-revalidate', [verdict.reason]);
      // The one background revalidation (RFC 5861 §3), run after the stale answer is produced.
      this.revalidate(request, key, entry, []);
      return answer;
    }
    if (clientDirectives.cacheControl.onlyIfCached) {
      return { response: GATEWAY_TIMEOUT, outcome: 'gateway-timeout', reasons: [verdict.reason, reason('RFC 9111 §5.2.1.7', 'only-if-cached and the stored response is not usable')] };
    }
    return this.revalidate(request, key, entry, [verdict.reason]);
  }

  /** Drops every stored response for `url` (a path with its query) and all its variants: a purge (spec 1.2 item 6). */
  purge(url: string): void {
    this.invalidateUrl(new URL(url, 'http://cdnsim.invalid').href);
  }

  private keyOf(request: HttpRequest): { key: string; url: string } {
    const key = cacheKey(request, this.options.variants);
    return { key: key.key, url: key.query ? `${key.path}?${key.query}` : key.path };
  }

  /** RFC 9111 §4.1: a stored response is used only when the request matches its Vary fields; the newest wins. */
  private select(key: string, request: HttpRequest): StoredEntry | undefined {
    const list = this.entries.get(key);
    if (!list) return undefined;
    let best: StoredEntry | undefined;
    for (const entry of list) {
      if (!varyMatches(varying(entry), request.headers)) continue;
      if (!best || entry.freshness.storedAtMs >= best.freshness.storedAtMs) best = entry;
    }
    return best;
  }

  private passUnsafe(request: HttpRequest): NodeAnswer {
    const response = this.options.upstream(request) ?? BAD_GATEWAY;
    const invalidation = invalidatedUrls(request.method, request.url, response.status, response.headers);
    for (const url of invalidation.urls) this.invalidateUrl(url);
    return { response, outcome: 'pass', reasons: [reason('RFC 9111 §4.4', `${request.method.toUpperCase()} is not served from cache`), ...invalidation.reasons] };
  }

  private pass(request: HttpRequest, why: PolicyReason): NodeAnswer {
    return { response: this.options.upstream(request) ?? BAD_GATEWAY, outcome: 'pass', reasons: [why] };
  }

  private invalidateUrl(absoluteUrl: string): void {
    const parsed = new URL(absoluteUrl);
    const key = this.keyOf({ method: 'GET', url: parsed.pathname + parsed.search, headers: new Map() });
    for (const stored of this.keysByUrl.get(key.url) ?? []) this.entries.delete(stored);
    this.keysByUrl.delete(key.url);
  }

  private fetchAndStore(request: HttpRequest, key: { key: string; url: string }, stale: StoredEntry | undefined, outcome: NodeOutcome, reasons: PolicyReason[]): NodeAnswer {
    const requestTimeMs = this.options.now();
    const upstreamRequest = this.fillingRequest(request.method.toUpperCase() === 'HEAD' && stale ? { ...request, method: 'GET' } : request);
    const response = this.options.upstream(upstreamRequest);
    if (response === undefined || response.status >= 500) {
      // spec 4.7 serves the last known good version: never a stored error in its place.
      if (stale && stale.status < 500 && mayServeStaleOnError(stale.freshness, this.options.now())) {
        const why = reason('spec 4.7, RFC 5861 §4', response === undefined ? 'origin unreachable: the last known good version is served' : `origin answered ${response.status}: the stored version is served`);
        return this.serveStored(request, stale, 'stale-on-error', [...reasons, why]);
      }
      if (response === undefined) return { response: BAD_GATEWAY, outcome, reasons: [...reasons, reason('spec 4.7', 'origin unreachable and nothing may be served stale')] };
    }
    const decision = this.store(request, key, response, requestTimeMs, stale);
    if (upstreamRequest !== request && response.status === 200 && conditionalRequestMatches(request.headers, response.headers, this.options.now())) {
      return { response: { status: 304, headers: response.headers, body: '' }, outcome: 'not-modified-to-client', reasons: [...reasons, ...decision.reasons] };
    }
    return { response: withoutBodyForHead(request, response), outcome, reasons: [...reasons, ...decision.reasons] };
  }

  /**
   * What a shared node sends upstream on a miss: the client's request without its own
   * validators (If-None-Match, If-Modified-Since), so the full response comes back and fills
   * this node, which then answers the client's condition itself (RFC 9111 §4.3.2). The
   * layered flow's CDN nodes fetch the same way. A browser forwards the request as it is.
   */
  private fillingRequest(request: HttpRequest): HttpRequest {
    if (!isSharedLayer(this.options.layer) || request.method.toUpperCase() !== 'GET') return request;
    if (!request.headers.has('if-none-match') && !request.headers.has('if-modified-since')) return request;
    const headers = new Map(request.headers);
    headers.delete('if-none-match');
    headers.delete('if-modified-since');
    return { ...request, headers };
  }

  private revalidate(request: HttpRequest, key: { key: string; url: string }, entry: StoredEntry, reasons: PolicyReason[]): NodeAnswer {
    if (!hasValidator(entry.headers)) return this.fetchAndStore(request, key, entry, 'miss', reasons);
    const requestTimeMs = this.options.now();
    const headers = new Map(request.headers);
    headers.delete('if-none-match');
    headers.delete('if-modified-since');
    for (const [name, value] of conditionalRequestHeaders(entry.headers)) headers.set(name, value);
    const response = this.options.upstream({ method: 'GET', url: request.url, headers });
    if (response === undefined || response.status >= 500) {
      if (entry.status < 500 && mayServeStaleOnError(entry.freshness, this.options.now())) {
        return this.serveStored(request, entry, 'stale-on-error', [...reasons, reason('spec 4.7, RFC 5861 §4', 'revalidation failed: the stored version is served')]);
      }
      if (response === undefined) return { response: BAD_GATEWAY, outcome: 'miss', reasons };
    }
    if (response.status === 304 && notModifiedSelects(entry.headers, response.headers)) {
      entry.headers = mergeNotModified(entry.headers, response.headers);
      const decision = this.decideFor(request, { status: entry.status, headers: entry.headers }, requestTimeMs);
      entry.decision = decision;
      entry.freshness = freshnessOf(decision, this.options.now());
      return this.serveStored(request, entry, 'revalidated', [...reasons, reason('RFC 9111 §4.3.4', '304 Not Modified: the stored response is refreshed and served')]);
    }
    if (response.status === 304) {
      // RFC 9111 §4.3.4: a 304 whose validator matches no stored response MUST NOT update one;
      // but it answers the validators this node sent, so the stored response they name is
      // still current (RFC 9110 §15.4.5) and is served as stored. A 304 is never handed to a
      // client that did not ask conditionally, nor does it displace the stored response.
      return this.serveStored(request, entry, 'revalidated', [...reasons, reason('RFC 9111 §4.3.4', '304 Not Modified with a validator that matches no stored response: nothing is updated; the stored response is served')]);
    }
    const decision = this.store(request, key, response, requestTimeMs, entry);
    return { response: withoutBodyForHead(request, response), outcome: 'miss', reasons: [...reasons, ...decision.reasons] };
  }

  private decideFor(request: HttpRequest, response: { status: number; headers: HeaderFields }, requestTimeMs: number): CacheDecision {
    return decide({
      request: { method: 'GET', url: request.url, headers: request.headers },
      response,
      deployment: this.options.deployment,
      layer: this.options.layer,
      nowMs: this.options.now(),
      requestTimeMs,
      options: this.options.policy,
      variants: this.options.variants,
    });
  }

  private store(request: HttpRequest, key: { key: string; url: string }, response: HttpResponse, requestTimeMs: number, previous: StoredEntry | undefined): CacheDecision {
    const decision = this.decideFor(request, response, requestTimeMs);
    if (request.method.toUpperCase() === 'HEAD') return decision;
    if (!decision.store) {
      // A response that may not be stored still replaces nothing, except that a newer
      // non-storable answer makes the old one obsolete (RFC 9111 §4.4 spirit): drop it.
      if (previous && response.status < 500) this.removeEntry(key.key, previous);
      return decision;
    }
    if (decision.errorCaching && !errorMayReplaceStored(previous?.freshness, this.options.now())) {
      return { ...decision, reasons: [...decision.reasons, reason('spec 7.1', 'the error does not displace the stored version that can still be served')] };
    }
    // A shared cache keeps no field named by a qualified private="…" (RFC 9111 §5.2.2.7), read by the engine's own parser.
    const excluded = isSharedLayer(this.options.layer) ? (readResponseFacts(response, this.options.layer, this.options.now()).cacheControl.privateFields ?? []) : [];
    const entry: StoredEntry = {
      requestHeaders: request.headers,
      status: response.status,
      headers: storedHeaderFields(response.headers, excluded),
      body: response.body,
      decision,
      freshness: freshnessOf(decision, this.options.now()),
    };
    const list = (this.entries.get(key.key) ?? []).filter((other) => other !== previous && !sameVariant(varying(other), varying(entry)));
    list.push(entry);
    this.entries.set(key.key, list);
    let keys = this.keysByUrl.get(key.url);
    if (!keys) this.keysByUrl.set(key.url, (keys = new Set()));
    keys.add(key.key);
    return decision;
  }

  private removeEntry(key: string, entry: StoredEntry): void {
    const list = this.entries.get(key)?.filter((other) => other !== entry);
    if (list && list.length) this.entries.set(key, list);
    else this.entries.delete(key);
  }

  private serveStored(request: HttpRequest, entry: StoredEntry, outcome: NodeOutcome, reasons: PolicyReason[]): NodeAnswer {
    const now = this.options.now();
    const headers = new Map(entry.headers);
    // RFC 9111 §5.1: a response served from cache carries its current age.
    headers.set('age', String(Math.max(0, Math.floor(currentAgeSeconds(entry.freshness.initialAgeSeconds, entry.freshness.storedAtMs, now)))));
    if (conditionalRequestMatches(request.headers, entry.headers, now)) {
      return { response: { status: 304, headers, body: '' }, outcome: 'not-modified-to-client', reasons: [...reasons, reason('RFC 9111 §4.3.2', "the client's conditional request matches the stored response: 304")] };
    }
    return { response: { status: entry.status, headers, body: request.method.toUpperCase() === 'HEAD' ? '' : entry.body }, outcome, reasons };
  }
}

function freshnessOf(decision: CacheDecision, storedAtMs: number): StoredFreshness {
  return {
    storedAtMs,
    initialAgeSeconds: decision.initialAgeSeconds,
    freshnessLifetimeSeconds: decision.revalidateAlways ? 0 : decision.freshnessLifetimeSeconds,
    revalidateAlways: decision.revalidateAlways,
    neverServeStale: decision.neverServeStale,
    staleWhileRevalidateSeconds: decision.staleWhileRevalidateSeconds,
    staleIfErrorSeconds: decision.staleIfErrorSeconds,
  };
}

function withoutBodyForHead(request: HttpRequest, response: HttpResponse): HttpResponse {
  return request.method.toUpperCase() === 'HEAD' ? { ...response, body: '' } : response;
}

/** What Vary selection reads of a stored entry (RFC 9111 §4.1). */
function varying(entry: StoredEntry): VaryingResponse {
  return { responseHeaders: entry.headers, requestHeaders: entry.requestHeaders };
}
