import { cacheKey } from '../policy/cacheKey.js';
import { decide, type CacheDecision } from '../policy/decision.js';
import { isSharedLayer, type CacheLayer, type Deployment, type PolicyOptions } from '../policy/deployment.js';
import { currentAgeSeconds } from '../policy/freshness.js';
import type { HeaderFields } from '../policy/headers.js';
import { readResponseFacts } from '../policy/responseFacts.js';
import { reason, type PolicyReason } from '../policy/reason.js';
import { errorMayReplaceStored, mayServeStaleOnError, requestCacheControl, reuseVerdict, type StoredFreshness } from '../policy/reuse.js';
import {
  answerRange,
  CDN_RANGE_OPTIONS,
  combineContent,
  combinedHeaderFields,
  contentOf,
  isComplete,
  partialResponseHeaders,
  sharedStrongValidator,
  unsatisfiableResponseHeaders,
  type RangeAnswer,
  type StoredContent,
} from '../policy/partialContent.js';
import {
  conditionalRequestHeaders,
  conditionalRequestMatches,
  hasValidator,
  invalidatedUrls,
  mergeNotModified,
  notModifiedSelects,
  storedHeaderFields,
  updateFromHead,
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
  /** The representation's bytes held: complete, or parts from 206 responses (RFC 9111 §3.3). */
  content: StoredContent;
  freshness: StoredFreshness;
  decision: CacheDecision;
}

/** What fetchAndStore asks upstream: the whole representation, or a range (RFC 9111 §3.3–3.4, spec 4.8). */
type FetchPlan = Extract<RangeAnswer, { kind: 'fetch' }>;
const WHOLE: FetchPlan = { kind: 'fetch', range: undefined, ifRange: undefined, combine: false };

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
    // RFC 9111 §3.3: stored parts answer only a range wholly within them; otherwise the missing
    // bytes (of the chunks the range touches, spec 4.8) are fetched first.
    const plan = answerRange(request, entry, now, this.rangeOptions());
    if (plan.kind === 'fetch') {
      if (clientDirectives.cacheControl.onlyIfCached) {
        return { response: GATEWAY_TIMEOUT, outcome: 'gateway-timeout', reasons: [reason('RFC 9111 §3.3, §5.2.1.7', 'only-if-cached and the stored parts do not hold the request')] };
      }
      return this.fetchAndStore(request, key, entry, 'miss', [reason('RFC 9111 §3.3', 'the stored parts do not hold the requested bytes')], plan);
    }
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

  private rangeOptions(): { chunkBytes?: number } {
    return isSharedLayer(this.options.layer) ? CDN_RANGE_OPTIONS : {};
  }

  private fetchAndStore(
    request: HttpRequest,
    key: { key: string; url: string },
    stale: StoredEntry | undefined,
    outcome: NodeOutcome,
    reasons: PolicyReason[],
    plan: FetchPlan = fetchPlanFor(request, this.options.now(), this.rangeOptions()),
  ): NodeAnswer {
    const requestTimeMs = this.options.now();
    const upstreamRequest = withRange(this.fillingRequest(request), plan);
    const response = this.options.upstream(upstreamRequest);
    if (response === undefined || response.status >= 500) {
      // spec 4.7 serves the last known good version: never a stored error in its place.
      if (stale && stale.status < 500 && mayServeStaleOnError(stale.freshness, this.options.now())) {
        const why = reason('spec 4.7, RFC 5861 §4', response === undefined ? 'origin unreachable: the last known good version is served' : `origin answered ${response.status}: the stored version is served`);
        return this.serveStored(request, stale, 'stale-on-error', [...reasons, why]);
      }
      if (response === undefined) return { response: BAD_GATEWAY, outcome, reasons: [...reasons, reason('spec 4.7', 'origin unreachable and nothing may be served stale')] };
    }
    if (stale && isHead(request) && response.status === 200) return this.refreshFromHead(request, stale, response, requestTimeMs, reasons);
    const stored = this.store(request, key, response, requestTimeMs, stale, plan);
    const answerReasons = [...reasons, ...stored.decision.reasons];
    if (upstreamRequest.headers.has('if-none-match') !== request.headers.has('if-none-match') || upstreamRequest.headers.has('if-modified-since') !== request.headers.has('if-modified-since')) {
      if (response.status === 200 && conditionalRequestMatches(request.headers, response.headers, this.options.now())) {
        return { response: { status: 304, headers: response.headers, body: '' }, outcome: 'not-modified-to-client', reasons: answerReasons };
      }
    }
    return { response: rangeAnswerTo(request, response, stored.representation, this.options.now()), outcome, reasons: answerReasons };
  }

  /**
   * RFC 9111 §4.3.5: a 200 to the HEAD this node forwarded for a stale stored response updates
   * that response's fields (then it answers the HEAD), or marks it stale when its validators
   * or length disagree (then the HEAD response itself answers).
   */
  private refreshFromHead(request: HttpRequest, entry: StoredEntry, response: HttpResponse, requestTimeMs: number, reasons: PolicyReason[]): NodeAnswer {
    const update = updateFromHead({ headers: entry.headers, length: contentLength(entry.content) }, response);
    if (update.kind === 'update') {
      this.refresh(request, entry, update.headers, requestTimeMs);
      return this.serveStored(request, entry, 'revalidated', [...reasons, reason('RFC 9111 §4.3.5', 'a 200 to a HEAD updates the stored response, which answers the HEAD')]);
    }
    if (update.kind === 'stale') entry.freshness = { ...entry.freshness, freshnessLifetimeSeconds: 0, staleWhileRevalidateSeconds: 0 };
    return { response: withoutBodyForHead(request, response), outcome: 'miss', reasons: [...reasons, reason('RFC 9111 §4.3.5', 'the HEAD response does not match the stored response, which is now stale')] };
  }

  /** The stored response with new fields (a 304, RFC 9111 §4.3.4, or a HEAD, §4.3.5): a new decision and freshness. */
  private refresh(request: HttpRequest, entry: StoredEntry, headers: HeaderFields, requestTimeMs: number): void {
    entry.headers = headers;
    const decision = this.decideFor(request, { status: entry.status, headers: entry.headers }, requestTimeMs);
    entry.decision = decision;
    entry.freshness = freshnessOf(decision, this.options.now());
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
    // The whole stored response is validated; a HEAD is forwarded as a HEAD (RFC 9111 §4.3.5).
    for (const name of ['if-none-match', 'if-modified-since', 'range', 'if-range']) headers.delete(name);
    for (const [name, value] of conditionalRequestHeaders(entry.headers)) headers.set(name, value);
    const response = this.options.upstream({ method: isHead(request) ? 'HEAD' : 'GET', url: request.url, headers });
    if (response === undefined || response.status >= 500) {
      if (entry.status < 500 && mayServeStaleOnError(entry.freshness, this.options.now())) {
        return this.serveStored(request, entry, 'stale-on-error', [...reasons, reason('spec 4.7, RFC 5861 §4', 'revalidation failed: the stored version is served')]);
      }
      if (response === undefined) return { response: BAD_GATEWAY, outcome: 'miss', reasons };
    }
    if (response.status === 304 && notModifiedSelects(entry.headers, response.headers)) {
      this.refresh(request, entry, mergeNotModified(entry.headers, response.headers), requestTimeMs);
      return this.serveStored(request, entry, 'revalidated', [...reasons, reason('RFC 9111 §4.3.4', '304 Not Modified: the stored response is refreshed and served')]);
    }
    if (response.status === 304) {
      // RFC 9111 §4.3.4: a 304 whose validator matches no stored response MUST NOT update one;
      // but it answers the validators this node sent, so the stored response they name is
      // still current (RFC 9110 §15.4.5) and is served as stored. A 304 is never handed to a
      // client that did not ask conditionally, nor does it displace the stored response.
      return this.serveStored(request, entry, 'revalidated', [...reasons, reason('RFC 9111 §4.3.4', '304 Not Modified with a validator that matches no stored response: nothing is updated; the stored response is served')]);
    }
    if (isHead(request) && response.status === 200) return this.refreshFromHead(request, entry, response, requestTimeMs, reasons);
    const stored = this.store(request, key, response, requestTimeMs, entry, WHOLE);
    return { response: rangeAnswerTo(request, response, stored.representation, this.options.now()), outcome: 'miss', reasons: [...reasons, ...stored.decision.reasons] };
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

  /**
   * Stores what may be stored of `response`; a 206 is combined with the stored parts when
   * `plan` asked for the missing bytes and both share a strong validator (RFC 9111 §3.4). Returns
   * the decision and what the response makes of the representation (stored or not), from which
   * the client's range is answered.
   */
  private store(
    request: HttpRequest,
    key: { key: string; url: string },
    response: HttpResponse,
    requestTimeMs: number,
    previous: StoredEntry | undefined,
    plan: FetchPlan,
  ): { decision: CacheDecision; representation: { headers: HeaderFields; content: StoredContent } | undefined } {
    const decision = this.decideFor(request, response, requestTimeMs);
    const received = contentOf(response.status, response.headers, response.body);
    const combine = plan.combine && previous !== undefined && sharedStrongValidator(previous.headers, response.headers) !== undefined;
    const content = received && combineContent(previous?.content, received, combine);
    const representation = content && { headers: content === received ? response.headers : combinedHeaderFields(response.headers, content), content };
    if (isHead(request)) return { decision, representation: undefined };
    if (!decision.store) {
      // A response that may not be stored still replaces nothing, except that a newer
      // non-storable answer makes the old one obsolete (RFC 9111 §4.4 spirit): drop it.
      if (previous && response.status < 500) this.removeEntry(key.key, previous);
      return { decision, representation };
    }
    if (decision.errorCaching && !errorMayReplaceStored(previous?.freshness, this.options.now())) {
      return { decision: { ...decision, reasons: [...decision.reasons, reason('spec 7.1', 'the error does not displace the stored version that can still be served')] }, representation };
    }
    // A multipart/byteranges 206 is passed on, not stored (RFC 9111 §3.3 allows, does not require, storing parts).
    if (response.status === 206 && !content) return { decision, representation };
    // A shared cache keeps no field named by a qualified private="…" (RFC 9111 §5.2.2.7), read by the engine's own parser.
    const excluded = isSharedLayer(this.options.layer) ? (readResponseFacts(response, this.options.layer, this.options.now()).cacheControl.privateFields ?? []) : [];
    const complete = content !== undefined && isComplete(content);
    const entry: StoredEntry = {
      requestHeaders: request.headers,
      status: complete ? 200 : response.status,
      headers: storedHeaderFields(representation?.headers ?? response.headers, excluded),
      content: content ?? { completeLength: response.body.length, pieces: response.body ? [{ first: 0, bytes: response.body }] : [] },
      decision,
      freshness: freshnessOf(decision, this.options.now()),
    };
    const list = (this.entries.get(key.key) ?? []).filter((other) => other !== previous && !sameVariant(varying(other), varying(entry)));
    list.push(entry);
    this.entries.set(key.key, list);
    let keys = this.keysByUrl.get(key.url);
    if (!keys) this.keysByUrl.set(key.url, (keys = new Set()));
    keys.add(key.key);
    return { decision, representation };
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
    if (conditionalRequestMatches(request.headers, entry.headers, now, entry.freshness.storedAtMs)) {
      return { response: { status: 304, headers, body: '' }, outcome: 'not-modified-to-client', reasons: [...reasons, reason('RFC 9111 §4.3.2', "the client's conditional request matches the stored response: 304")] };
    }
    const answer = answerRange(request, entry, now, this.rangeOptions());
    switch (answer.kind) {
      case 'whole':
        return { response: { status: entry.status, headers, body: isHead(request) ? '' : wholeBody(entry.content) }, outcome, reasons };
      case 'partial':
        return { response: { status: 206, headers: partialResponseHeaders(headers, answer.contentRange, answer.bytes.length), body: answer.bytes }, outcome, reasons: [...reasons, reason('RFC 9110 §15.3.7', `206: ${answer.contentRange} from the stored response`)] };
      case 'unsatisfiable':
        return { response: { status: 416, headers: unsatisfiableResponseHeaders(headers, answer.contentRange), body: '' }, outcome, reasons: [...reasons, reason('RFC 9110 §15.5.17', 'no requested range overlaps the stored representation')] };
      case 'fetch':
        // Only when the origin failed while the stored parts did not hold the request.
        return { response: BAD_GATEWAY, outcome, reasons: [...reasons, reason('RFC 9111 §3.3', 'the stored parts do not hold the requested bytes and the origin failed')] };
    }
  }
}

/** What a request asks upstream when nothing stored can take part (RFC 9111 §3.3, spec 4.8). */
function fetchPlanFor(request: HttpRequest, nowMs: number, options: { chunkBytes?: number }): FetchPlan {
  const plan = answerRange(request, undefined, nowMs, options);
  return plan.kind === 'fetch' ? plan : WHOLE;
}

/** The upstream request with the plan's Range and If-Range (or none, for the whole representation). */
function withRange(request: HttpRequest, plan: FetchPlan): HttpRequest {
  if (plan.range === undefined && !request.headers.has('range')) return request;
  const headers = new Map(request.headers);
  if (plan.range === undefined) {
    headers.delete('range');
    headers.delete('if-range');
  } else {
    headers.set('range', plan.range);
    if (plan.ifRange !== undefined) headers.set('if-range', plan.ifRange);
  }
  return { ...request, headers };
}

/**
 * The client's answer from a fresh upstream response: its range from what the response makes
 * of the representation (RFC 9110 §14.2), or the response as it came when that cannot answer.
 */
function rangeAnswerTo(request: HttpRequest, response: HttpResponse, representation: { headers: HeaderFields; content: StoredContent } | undefined, nowMs: number): HttpResponse {
  if (!representation || isHead(request)) return withoutBodyForHead(request, response);
  const answer = answerRange(request, representation, nowMs);
  if (answer.kind === 'partial') return { status: 206, headers: partialResponseHeaders(representation.headers, answer.contentRange, answer.bytes.length), body: answer.bytes };
  if (answer.kind === 'whole' && response.status === 206) return { status: 200, headers: representation.headers, body: wholeBody(representation.content) };
  return response;
}

function isHead(request: HttpRequest): boolean {
  return request.method.toUpperCase() === 'HEAD';
}

/** The body of complete content ('' for an empty representation). */
function wholeBody(content: StoredContent): string {
  return content.pieces[0]?.bytes ?? '';
}

/** The stored representation's length, for RFC 9111 §4.3.5: the complete length, or the bytes held. */
function contentLength(content: StoredContent): number {
  return content.completeLength ?? content.pieces.reduce((sum, piece) => sum + piece.bytes.length, 0);
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
  return isHead(request) ? { ...response, body: '' } : response;
}

/** What Vary selection reads of a stored entry (RFC 9111 §4.1). */
function varying(entry: StoredEntry): VaryingResponse {
  return { responseHeaders: entry.headers, requestHeaders: entry.requestHeaders };
}
