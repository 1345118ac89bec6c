import { cacheKey } from '../policy/cacheKey.js';
import type { CacheLayer, Deployment, PolicyOptions } from '../policy/deployment.js';
import type { HeaderFields } from '../policy/headers.js';
import { reason, type PolicyReason } from '../policy/reason.js';
import { mayServeStaleOnError, requestCacheControl, reuseVerdict } from '../policy/reuse.js';
import { conditionalRequestMatches, hasValidator, invalidatedUrls, mergeNotModified, notModifiedSelects, updateFromHead } from '../policy/revalidation.js';
import {
  answerFromReceived,
  answerFromStored,
  decideStored,
  getStoredFromPost,
  initialFetchPlan,
  isHead,
  markedStale,
  rangeOptionsFor,
  receiveResponse,
  refreshedStored,
  revalidationRequest,
  selectStored,
  storedLength,
  upstreamRequestFor,
  withStored,
  FETCH_WHOLE,
  type CacheSetting,
  type FetchPlan,
  type StoredResponse,
} from '../policy/storedResponse.js';
import type { VariantRules } from '../policy/variants.js';

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
  /**
   * Interim (1xx) responses sent before this final one (RFC 9110 §15.2). A cache relays those
   * it receives to the client and never stores them (RFC 9111 §3: only final responses are).
   */
  readonly interim?: readonly InterimResponse[];
}

export interface InterimResponse {
  readonly status: number;
  readonly headers: HeaderFields;
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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const BAD_GATEWAY: HttpResponse = { status: 502, headers: new Map([['content-type', 'text/plain']]), body: 'origin unreachable' };
const GATEWAY_TIMEOUT: HttpResponse = { status: 504, headers: new Map([['content-type', 'text/plain']]), body: 'only-if-cached and nothing stored' };

interface Key {
  readonly key: string;
  readonly url: string;
}

export class HttpCacheNode {
  /** Stored responses by cache key; several per key when they vary (RFC 9111 §4.1). */
  private readonly entries = new Map<string, StoredResponse[]>();
  /** Interim responses heard from upstream during the current exchange, relayed with its answer. */
  private relayed: InterimResponse[] = [];
  /** Cache keys by URL (path + sorted query) so invalidation reaches every variant (RFC 9111 §4.4). */
  private readonly keysByUrl = new Map<string, Set<string>>();
  private readonly setting: CacheSetting;

  constructor(private readonly options: HttpCacheNodeOptions) {
    this.setting = { layer: options.layer, deployment: options.deployment, policy: options.policy, variants: options.variants };
  }

  get storedCount(): number {
    let count = 0;
    for (const list of this.entries.values()) count += list.length;
    return count;
  }

  handle(request: HttpRequest): NodeAnswer {
    this.relayed = [];
    const answer = this.answer(request);
    if (this.relayed.length === 0) return answer;
    return { ...answer, response: { ...answer.response, interim: this.relayed } };
  }

  /** The next layer, with the interim responses it sends before its answer kept for the client (RFC 9110 §15.2). */
  private ask(request: HttpRequest): HttpResponse | undefined {
    const response = this.options.upstream(request);
    if (response?.interim) this.relayed.push(...response.interim);
    if (response?.interim === undefined) return response;
    const { interim: _relayed, ...final } = response;
    return final;
  }

  private answer(request: HttpRequest): NodeAnswer {
    const method = request.method.toUpperCase();
    if (!SAFE_METHODS.has(method)) return this.passUnsafe(request);
    if (method !== 'GET' && method !== 'HEAD') return this.pass(request, reason('RFC 9111 §3', `${method} is passed through`));
    const key = this.keyOf(request);
    const entry = selectStored(this.entries.get(key.key) ?? [], request.headers);
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
    const stored = answerFromStored(request, entry, now, rangeOptionsFor(this.options.layer));
    if (stored.kind === 'fetch') {
      if (clientDirectives.cacheControl.onlyIfCached) {
        return { response: GATEWAY_TIMEOUT, outcome: 'gateway-timeout', reasons: [reason('RFC 9111 §3.3, §5.2.1.7', 'only-if-cached and the stored parts do not hold the request')] };
      }
      return this.fetchAndStore(request, key, entry, 'miss', [reason('RFC 9111 §3.3', 'the stored parts do not hold the requested bytes')], stored);
    }
    const verdict = reuseVerdict(entry.freshness, now, clientDirectives);
    if (verdict.kind === 'fresh') return this.serveStored(request, entry, 'hit', [verdict.reason]);
    // spec 7.1: an origin error held beside the stored response: nothing goes upstream until it ends.
    const held = entry.errorUntilMs !== undefined && now < entry.errorUntilMs;
    if (verdict.kind === 'stale-while-revalidate') {
      const answer = this.serveStored(request, entry, 'stale-while-revalidate', [verdict.reason]);
      if (held) return answer;
      // The one background revalidation (RFC 5861 §3), run after the stale answer is produced:
      // what it hears is not part of this exchange.
      const heard = this.relayed.length;
      this.revalidate(request, key, entry, []);
      this.relayed.length = heard;
      return answer;
    }
    if (held && mayServeStaleOnError(entry.freshness, now, 'error')) {
      return this.serveStored(request, entry, 'stale-on-error', [verdict.reason, reason('spec 7.1, RFC 5861 §4', 'an origin error is held beside the stored version, which answers in its place')]);
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

  private keyOf(request: HttpRequest): Key {
    const key = cacheKey(request, this.options.variants);
    return { key: key.key, url: key.query ? `${key.path}?${key.query}` : key.path };
  }

  private passUnsafe(request: HttpRequest): NodeAnswer {
    const response = this.ask(request) ?? BAD_GATEWAY;
    const invalidation = invalidatedUrls(request.method, request.url, response.status, response.headers);
    for (const url of invalidation.urls) this.invalidateUrl(url);
    const reasons = [reason('RFC 9111 §4.4', `${request.method.toUpperCase()} is not served from cache`), ...invalidation.reasons];
    const asGet = getStoredFromPost(request, response, this.options.layer, this.options.now());
    if (asGet) {
      const received = this.receive(asGet, this.keyOf(asGet), response, this.options.now(), undefined, FETCH_WHOLE);
      if (received.store) reasons.push(reason('RFC 9110 §9.3.3', 'explicit freshness and a Content-Location naming the request URI: stored for later GETs'));
    }
    return { response, outcome: 'pass', reasons };
  }

  private pass(request: HttpRequest, why: PolicyReason): NodeAnswer {
    return { response: this.ask(request) ?? BAD_GATEWAY, outcome: 'pass', reasons: [why] };
  }

  private invalidateUrl(absoluteUrl: string): void {
    const parsed = new URL(absoluteUrl);
    const key = this.keyOf({ method: 'GET', url: parsed.pathname + parsed.search, headers: new Map() });
    for (const stored of this.keysByUrl.get(key.url) ?? []) this.entries.delete(stored);
    this.keysByUrl.delete(key.url);
  }

  private fetchAndStore(
    request: HttpRequest,
    key: Key,
    stale: StoredResponse | undefined,
    outcome: NodeOutcome,
    reasons: PolicyReason[],
    plan: FetchPlan = initialFetchPlan(request, this.options.now(), rangeOptionsFor(this.options.layer)),
  ): NodeAnswer {
    const requestTimeMs = this.options.now();
    const upstreamRequest = upstreamRequestFor(request, this.options.layer, plan);
    const response = this.ask(upstreamRequest);
    if (response === undefined || response.status >= 500) {
      // spec 4.7 serves the last known good version: never a stored error in its place.
      if (stale && stale.status < 500 && mayServeStaleOnError(stale.freshness, this.options.now(), response === undefined ? 'unreachable' : 'error')) {
        const why = reason('spec 4.7, RFC 5861 §4', response === undefined ? 'origin unreachable: the last known good version is served' : `origin answered ${response.status}: the stored version is served`);
        return this.serveStored(request, this.holdError(key, stale, request, response, requestTimeMs), 'stale-on-error', [...reasons, why]);
      }
      if (response === undefined) return { response: BAD_GATEWAY, outcome, reasons: [...reasons, reason('spec 4.7', 'origin unreachable and nothing may be served stale')] };
    }
    if (stale && isHead(request) && response.status === 200) return this.refreshFromHead(request, key, stale, response, requestTimeMs, reasons);
    const received = this.receive(request, key, response, requestTimeMs, stale, plan);
    const answerReasons = [...reasons, ...received.reasons];
    const strippedValidators = ['if-none-match', 'if-modified-since'].some((name) => request.headers.has(name) && !upstreamRequest.headers.has(name));
    if (strippedValidators && response.status === 200 && conditionalRequestMatches(request.headers, response.headers, this.options.now())) {
      return { response: { status: 304, headers: response.headers, body: '' }, outcome: 'not-modified-to-client', reasons: answerReasons };
    }
    return { response: answerFromReceived(request, response, received, this.options.now()), outcome, reasons: answerReasons };
  }

  private revalidate(request: HttpRequest, key: Key, entry: StoredResponse, reasons: PolicyReason[]): NodeAnswer {
    if (!hasValidator(entry.headers)) return this.fetchAndStore(request, key, entry, 'miss', reasons);
    const requestTimeMs = this.options.now();
    const response = this.ask(revalidationRequest(request, entry));
    if (response === undefined || response.status >= 500) {
      if (entry.status < 500 && mayServeStaleOnError(entry.freshness, this.options.now(), response === undefined ? 'unreachable' : 'error')) {
        return this.serveStored(request, this.holdError(key, entry, request, response, requestTimeMs), 'stale-on-error', [...reasons, reason('spec 4.7, RFC 5861 §4', 'revalidation failed: the stored version is served')]);
      }
      if (response === undefined) return { response: BAD_GATEWAY, outcome: 'miss', reasons };
    }
    if (response.status === 304 && notModifiedSelects(entry.headers, response.headers)) {
      const refreshed = this.replace(key, entry, refreshedStored(this.setting, entry, request, mergeNotModified(entry.headers, response.headers), this.options.now(), requestTimeMs));
      return this.serveStored(request, refreshed, 'revalidated', [...reasons, reason('RFC 9111 §4.3.4', '304 Not Modified: the stored response is refreshed and served')]);
    }
    if (response.status === 304) {
      // RFC 9111 §4.3.4: a 304 whose validator matches no stored response MUST NOT update one;
      // but it answers the validators this node sent, so the stored response they name is
      // still current (RFC 9110 §15.4.5) and is served as stored. A 304 is never handed to a
      // client that did not ask conditionally, nor does it displace the stored response.
      return this.serveStored(request, entry, 'revalidated', [...reasons, reason('RFC 9111 §4.3.4', '304 Not Modified with a validator that matches no stored response: nothing is updated; the stored response is served')]);
    }
    if (isHead(request) && response.status === 200) return this.refreshFromHead(request, key, entry, response, requestTimeMs, reasons);
    const received = this.receive(request, key, response, requestTimeMs, entry, FETCH_WHOLE);
    return { response: answerFromReceived(request, response, received, this.options.now()), outcome: 'miss', reasons: [...reasons, ...received.reasons] };
  }

  /**
   * RFC 9111 §4.3.5: a 200 to the HEAD this node forwarded for a stale stored response updates
   * that response's fields (then it answers the HEAD), or marks it stale when its validators
   * or length disagree (then the HEAD response itself answers).
   */
  private refreshFromHead(request: HttpRequest, key: Key, entry: StoredResponse, response: HttpResponse, requestTimeMs: number, reasons: PolicyReason[]): NodeAnswer {
    const update = updateFromHead({ headers: entry.headers, length: storedLength(entry) }, response);
    if (update.kind === 'update') {
      const refreshed = this.replace(key, entry, refreshedStored(this.setting, entry, request, update.headers, this.options.now(), requestTimeMs));
      return this.serveStored(request, refreshed, 'revalidated', [...reasons, reason('RFC 9111 §4.3.5', 'a 200 to a HEAD updates the stored response, which answers the HEAD')]);
    }
    if (update.kind === 'stale') this.replace(key, entry, markedStale(entry));
    return { response: { ...response, body: '' }, outcome: 'miss', reasons: [...reasons, reason('RFC 9111 §4.3.5', 'the HEAD response does not match the stored response, which is now stale')] };
  }

  /**
   * spec 7.1: a 5xx this layer would store (error caching, or its own lifetime) does not
   * displace `entry`, which answered in its place; it is held beside it for that lifetime, so
   * the node does not ask again before then. A refused connection holds nothing.
   */
  private holdError(key: Key, entry: StoredResponse, request: HttpRequest, response: HttpResponse | undefined, requestTimeMs: number): StoredResponse {
    if (response === undefined) return entry;
    const now = this.options.now();
    const decision = decideStored(this.setting, request, response, now, requestTimeMs);
    if (!decision.store) return entry;
    return this.replace(key, entry, { ...entry, errorUntilMs: now + decision.ttlSeconds * 1000 });
  }

  /** Applies what a response from upstream does to the store (see receiveResponse). */
  private receive(request: HttpRequest, key: Key, response: HttpResponse, requestTimeMs: number, previous: StoredResponse | undefined, plan: FetchPlan): ReturnType<typeof receiveResponse> {
    const received = receiveResponse(this.setting, request, response, previous, plan, this.options.now(), requestTimeMs);
    if (isHead(request)) return received;
    if (received.dropPrevious && previous) this.removeEntry(key.key, previous);
    if (!received.store) return received;
    this.entries.set(key.key, withStored(this.entries.get(key.key) ?? [], received.store, previous));
    let keys = this.keysByUrl.get(key.url);
    if (!keys) this.keysByUrl.set(key.url, (keys = new Set()));
    keys.add(key.key);
    return received;
  }

  /** Puts `updated` where `entry` was stored, and returns it. */
  private replace(key: Key, entry: StoredResponse, updated: StoredResponse): StoredResponse {
    const list = this.entries.get(key.key);
    const index = list?.indexOf(entry) ?? -1;
    if (list && index >= 0) list[index] = updated;
    return updated;
  }

  private removeEntry(key: string, entry: StoredResponse): void {
    const list = this.entries.get(key)?.filter((other) => other !== entry);
    if (list && list.length) this.entries.set(key, list);
    else this.entries.delete(key);
  }

  private serveStored(request: HttpRequest, entry: StoredResponse, outcome: NodeOutcome, reasons: PolicyReason[]): NodeAnswer {
    const answer = answerFromStored(request, entry, this.options.now(), rangeOptionsFor(this.options.layer));
    // A fetch is asked for only when the origin failed while the stored parts did not hold the request.
    if (answer.kind === 'fetch') return { response: BAD_GATEWAY, outcome, reasons: [...reasons, reason('RFC 9111 §3.3', 'the stored parts do not hold the requested bytes and the origin failed')] };
    return { response: answer.response, outcome: answer.notModified ? 'not-modified-to-client' : outcome, reasons: answer.reason ? [...reasons, answer.reason] : reasons };
  }
}
