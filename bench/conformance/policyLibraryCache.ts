import { cacheKey } from '../../src/policy/cacheKey.js';
import type { CacheLayer } from '../../src/policy/deployment.js';
import { mayServeStaleOnError, requestCacheControl, reuseVerdict } from '../../src/policy/reuse.js';
import { conditionalRequestMatches, hasValidator, invalidatedUrls, mergeNotModified, notModifiedSelects, updateFromHead } from '../../src/policy/revalidation.js';
import {
  answerFromReceived,
  answerFromStored,
  FETCH_WHOLE,
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
  type CacheRequest,
  type CacheResponse,
  type CacheSetting,
  type FetchPlan,
  type StoredResponse,
} from '../../src/policy/storedResponse.js';
import { DEPLOYMENT, type CacheFactory, type CacheUnderTest } from './harness.js';

/**
 * A cache a library user writes from cdnsim's exported policy functions alone (src/policy; no
 * HttpCacheNode, nothing from src/cdn): their own store — here one array of stored responses
 * per cache key, each tagged with its URL for invalidation — and the exchange loop RFC 9111
 * describes, every rule taken from the engine. The conformance test pins that it scores what
 * the node scores, so the library is complete on its own.
 */
export const policyLibraryCache: CacheFactory = (profile, upstream, now) => new PolicyLibraryCache(profile.layer, upstream, now);

/** An interim (1xx) response (RFC 9110 §15.2). */
interface InterimResponse {
  readonly status: number;
  readonly headers: CacheResponse['headers'];
}

/** The next layer; a final response may carry the interim (1xx) responses sent before it. */
type Upstream = (request: CacheRequest) => (CacheResponse & { interim?: readonly InterimResponse[] }) | undefined;

interface Slot {
  readonly url: string;
  responses: StoredResponse[];
}

const ERROR: CacheResponse = { status: 502, headers: new Map([['content-type', 'text/plain']]), body: 'upstream failed' };
const NOT_CACHED: CacheResponse = { status: 504, headers: new Map([['content-type', 'text/plain']]), body: 'only-if-cached' };

class PolicyLibraryCache implements CacheUnderTest {
  private readonly slots = new Map<string, Slot>();
  /** 1xx responses heard during the current exchange: relayed, never stored (RFC 9110 §15.2, RFC 9111 §3). */
  private relayed: InterimResponse[] = [];
  private readonly setting: CacheSetting;

  constructor(
    private readonly layer: CacheLayer,
    private readonly next: Upstream,
    private readonly now: () => number,
  ) {
    this.setting = { layer, deployment: DEPLOYMENT };
  }

  handle(request: CacheRequest): { response: CacheResponse & { interim?: readonly InterimResponse[] } } {
    this.relayed = [];
    const response = this.respond(request);
    return { response: this.relayed.length === 0 ? response : { ...response, interim: this.relayed } };
  }

  private upstream(request: CacheRequest): CacheResponse | undefined {
    const response = this.next(request);
    if (response?.interim === undefined) return response;
    this.relayed.push(...response.interim);
    const { interim: _relayed, ...final } = response;
    return final;
  }

  private respond(request: CacheRequest): CacheResponse {
    const method = request.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      const response = this.upstream(request) ?? ERROR;
      // RFC 9111 §4.4: unsafe methods invalidate; OPTIONS and TRACE are safe and pass.
      for (const url of invalidatedUrls(method, request.url, response.status, response.headers).urls) this.invalidate(url);
      const asGet = getStoredFromPost(request, response, this.layer, this.now());
      if (asGet) this.keep(asGet, this.slotFor(asGet), response, undefined, FETCH_WHOLE, this.now());
      return response;
    }
    const slot = this.slotFor(request);
    const stored = selectStored(slot.responses, request.headers);
    const directives = requestCacheControl(request.headers);
    if (!stored) return directives.cacheControl.onlyIfCached ? NOT_CACHED : this.fetch(request, slot, undefined);
    const answer = answerFromStored(request, stored, this.now(), rangeOptionsFor(this.layer));
    if (answer.kind === 'fetch') return directives.cacheControl.onlyIfCached ? NOT_CACHED : this.fetch(request, slot, stored, answer);
    const verdict = reuseVerdict(stored.freshness, this.now(), directives);
    if (verdict.kind === 'fresh') return answer.response;
    if (verdict.kind === 'stale-while-revalidate') {
      // The background revalidation is not part of this exchange: nothing it hears is relayed.
      const heard = this.relayed.length;
      this.validate(request, slot, stored);
      this.relayed.length = heard;
      return answer.response;
    }
    return directives.cacheControl.onlyIfCached ? NOT_CACHED : this.validate(request, slot, stored);
  }

  private slotFor(request: CacheRequest): Slot {
    const key = cacheKey(request);
    const slot = this.slots.get(key.key) ?? { url: key.urlKey, responses: [] };
    this.slots.set(key.key, slot);
    return slot;
  }

  /** The stored response, if it may stand in for a failed upstream (spec 4.7 for a refused connection, RFC 5861 §4 for a 5xx). */
  private fallback(request: CacheRequest, stored: StoredResponse | undefined, response: CacheResponse | undefined): CacheResponse | undefined {
    if (!stored || stored.status >= 500 || !mayServeStaleOnError(stored.freshness, this.now(), response === undefined ? 'unreachable' : 'error')) return undefined;
    const answer = answerFromStored(request, stored, this.now(), rangeOptionsFor(this.layer));
    return answer.kind === 'answer' ? answer.response : ERROR;
  }

  private fetch(request: CacheRequest, slot: Slot, stored: StoredResponse | undefined, plan?: FetchPlan): CacheResponse {
    const startedMs = this.now();
    const chosen = plan ?? initialFetchPlan(request, startedMs, rangeOptionsFor(this.layer));
    const sent = upstreamRequestFor(request, this.layer, chosen);
    const response = this.upstream(sent);
    if (response === undefined || response.status >= 500) {
      const fallback = this.fallback(request, stored, response);
      if (fallback) return fallback;
      if (response === undefined) return ERROR;
    }
    if (stored && isHead(request) && response.status === 200) return this.headUpdate(request, slot, stored, response, startedMs);
    const received = this.keep(request, slot, response, stored, chosen, startedMs);
    const dropped = ['if-none-match', 'if-modified-since'].some((name) => request.headers.has(name) && !sent.headers.has(name));
    if (dropped && response.status === 200 && conditionalRequestMatches(request.headers, response.headers, this.now())) return { status: 304, headers: response.headers, body: '' };
    return answerFromReceived(request, response, received, this.now());
  }

  private validate(request: CacheRequest, slot: Slot, stored: StoredResponse): CacheResponse {
    if (!hasValidator(stored.headers)) return this.fetch(request, slot, stored);
    const startedMs = this.now();
    const response = this.upstream(revalidationRequest(request, stored));
    if (response === undefined || response.status >= 500) {
      const fallback = this.fallback(request, stored, response);
      if (fallback) return fallback;
      if (response === undefined) return ERROR;
    }
    if (response.status === 304) {
      // RFC 9111 §4.3.4: only a 304 that selects the stored response updates it; either way it is still current.
      const current = notModifiedSelects(stored.headers, response.headers)
        ? this.swap(slot, stored, refreshedStored(this.setting, stored, request, mergeNotModified(stored.headers, response.headers), this.now(), startedMs))
        : stored;
      return this.fromStored(request, current);
    }
    if (isHead(request) && response.status === 200) return this.headUpdate(request, slot, stored, response, startedMs);
    return answerFromReceived(request, response, this.keep(request, slot, response, stored, FETCH_WHOLE, startedMs), this.now());
  }

  /** RFC 9111 §4.3.5: a 200 to a HEAD updates the stored response or makes it stale. */
  private headUpdate(request: CacheRequest, slot: Slot, stored: StoredResponse, response: CacheResponse, startedMs: number): CacheResponse {
    const update = updateFromHead({ headers: stored.headers, length: storedLength(stored) }, response);
    if (update.kind === 'update') return this.fromStored(request, this.swap(slot, stored, refreshedStored(this.setting, stored, request, update.headers, this.now(), startedMs)));
    if (update.kind === 'stale') this.swap(slot, stored, markedStale(stored));
    return { ...response, body: '' };
  }

  private fromStored(request: CacheRequest, stored: StoredResponse): CacheResponse {
    const answer = answerFromStored(request, stored, this.now(), rangeOptionsFor(this.layer));
    return answer.kind === 'answer' ? answer.response : ERROR;
  }

  private keep(request: CacheRequest, slot: Slot, response: CacheResponse, previous: StoredResponse | undefined, plan: FetchPlan, startedMs: number): ReturnType<typeof receiveResponse> {
    const received = receiveResponse(this.setting, request, response, previous, plan, this.now(), startedMs);
    if (isHead(request)) return received;
    if (received.store) slot.responses = withStored(slot.responses, received.store, previous);
    else if (received.dropPrevious) slot.responses = slot.responses.filter((other) => other !== previous);
    return received;
  }

  private swap(slot: Slot, stored: StoredResponse, updated: StoredResponse): StoredResponse {
    slot.responses = slot.responses.map((other) => (other === stored ? updated : other));
    return updated;
  }

  private invalidate(absoluteUrl: string): void {
    const target = new URL(absoluteUrl);
    const url = cacheKey({ url: target.pathname + target.search, headers: new Map() }).urlKey;
    for (const [key, slot] of this.slots) if (slot.url === url) this.slots.delete(key);
  }
}
