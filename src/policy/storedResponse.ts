import { decide, type CacheDecision } from './decision.js';
import { isSharedLayer, type CacheLayer, type Deployment, type PolicyOptions } from './deployment.js';
import { currentAgeSeconds, explicitFreshness } from './freshness.js';
import type { HeaderFields } from './headers.js';
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
  type RangeOptions,
  type StoredContent,
} from './partialContent.js';
import { reason, type PolicyReason } from './reason.js';
import { readResponseFacts } from './responseFacts.js';
import { errorMayReplaceStored, type StoredFreshness } from './reuse.js';
import { conditionalRequestHeaders, conditionalRequestMatches, storedHeaderFields } from './revalidation.js';
import type { VariantRules } from './variants.js';
import { sameVariant, varyMatches, type VaryingResponse } from './vary.js';

/**
 * A cache's own bookkeeping around the policy engine, as pure functions over whole messages:
 * what it keeps of a response (RFC 9111 §3), which stored response a request selects (§4.1),
 * how a stored response answers (§4, with its Age, a 304 to a conditional request, or a range),
 * what is asked upstream, and what a new response makes of what is stored (§3.3–3.4). The
 * header-level node (src/cdn/httpCacheNode.ts) is these functions over a Map; a library user
 * gets the same behaviour with a store of their own.
 */

export interface CacheRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderFields;
}

export interface CacheResponse {
  readonly status: number;
  readonly headers: HeaderFields;
  readonly body: string;
}

/** What a cache keeps of one stored response. */
export interface StoredResponse {
  /** The request that produced it, for Vary (RFC 9111 §4.1). */
  readonly requestHeaders: HeaderFields;
  readonly status: number;
  readonly headers: HeaderFields;
  /** The representation's bytes held: complete, or parts from 206 responses (RFC 9111 §3.3). */
  readonly content: StoredContent;
  readonly freshness: StoredFreshness;
  readonly decision: CacheDecision;
  /**
   * spec 7.1 beside a stored response: the origin answered a 5xx, this response answered in
   * its place (RFC 5861 §4), and the error is held until then (ms): no request goes upstream
   * before. Absent: none. A refresh (304, HEAD) ends it.
   */
  readonly errorUntilMs?: number;
}

/** What a request asks upstream: the whole representation, or a range (RFC 9111 §3.3–3.4, spec 4.8). */
export type FetchPlan = Extract<RangeAnswer, { kind: 'fetch' }>;
export const FETCH_WHOLE: FetchPlan = { kind: 'fetch', range: undefined, ifRange: undefined, combine: false };

/** Where a cache sits and how it decides (the inputs of `decide` that do not change per exchange). */
export interface CacheSetting {
  readonly layer: CacheLayer;
  readonly deployment: Deployment;
  readonly policy?: PolicyOptions;
  readonly variants?: VariantRules;
}

/** spec 4.8: CDN layers fill whole chunks on a range miss; a browser asks for the bytes it lacks. */
export function rangeOptionsFor(layer: CacheLayer): RangeOptions {
  return isSharedLayer(layer) ? CDN_RANGE_OPTIONS : {};
}

/** The numbers a stored response carries from its decision, from `storedAtMs` on. */
export function storedFreshness(decision: CacheDecision, storedAtMs: number): StoredFreshness {
  return {
    storedAtMs,
    initialAgeSeconds: decision.initialAgeSeconds,
    freshnessLifetimeSeconds: decision.revalidateAlways ? 0 : decision.freshnessLifetimeSeconds,
    revalidateAlways: decision.revalidateAlways,
    neverServeStale: decision.neverServeStale,
    staleWhileRevalidateSeconds: decision.staleWhileRevalidateSeconds,
    staleIfErrorSeconds: decision.staleIfErrorSeconds,
    staleIfUnreachableSeconds: decision.staleIfUnreachableSeconds,
  };
}

/** The policy decision for a response to `request` (as a GET: HEAD responses refresh GET responses). */
export function decideStored(setting: CacheSetting, request: CacheRequest, response: { status: number; headers: HeaderFields }, nowMs: number, requestTimeMs: number): CacheDecision {
  return decide({
    request: { method: 'GET', url: request.url, headers: request.headers },
    response,
    deployment: setting.deployment,
    layer: setting.layer,
    nowMs,
    requestTimeMs,
    options: setting.policy,
    variants: setting.variants,
  });
}

/** A stored response with new fields (from a 304, RFC 9111 §4.3.4, or a HEAD, §4.3.5): a new decision and freshness. */
export function refreshedStored(setting: CacheSetting, stored: StoredResponse, request: CacheRequest, headers: HeaderFields, nowMs: number, requestTimeMs: number): StoredResponse {
  const decision = decideStored(setting, request, { status: stored.status, headers }, nowMs, requestTimeMs);
  return { ...stored, headers, decision, freshness: storedFreshness(decision, nowMs), errorUntilMs: undefined };
}

/** The stored response considered stale from now on (RFC 9111 §4.3.5, a HEAD that does not match). */
export function markedStale(stored: StoredResponse): StoredResponse {
  return { ...stored, freshness: { ...stored.freshness, freshnessLifetimeSeconds: 0, staleWhileRevalidateSeconds: 0 } };
}

function varying(stored: StoredResponse): VaryingResponse {
  return { responseHeaders: stored.headers, requestHeaders: stored.requestHeaders };
}

/** RFC 9111 §4.1: of the responses stored under one key, the newest whose Vary fields match the request. */
export function selectStored<T extends StoredResponse>(candidates: Iterable<T>, requestHeaders: HeaderFields): T | undefined {
  let best: T | undefined;
  for (const stored of candidates) {
    if (!varyMatches(varying(stored), requestHeaders)) continue;
    if (!best || stored.freshness.storedAtMs >= best.freshness.storedAtMs) best = stored;
  }
  return best;
}

/** The responses under one key after `added` is stored: it replaces `previous` and any response of its own variant (RFC 9111 §4.1, §3.2). */
export function withStored<T extends StoredResponse>(candidates: readonly T[], added: T, previous: T | undefined): T[] {
  return [...candidates.filter((other) => other !== previous && !sameVariant(varying(other), varying(added))), added];
}

/** The body of complete content ('' for an empty representation). */
export function wholeBody(content: StoredContent): string {
  return content.pieces[0]?.bytes ?? '';
}

/** How a stored response answers, with a reason when the answer is not the stored response itself. */
export interface StoredAnswer {
  readonly kind: 'answer';
  readonly response: CacheResponse;
  readonly notModified: boolean;
  readonly reason?: PolicyReason;
}

/**
 * The answer from a stored response (RFC 9111 §4): its fields with the current Age (§5.1); a 304
 * when the client's condition matches it (§4.3.2); a 206 or 416 for a Range it holds (RFC 9110
 * §14); or, when its parts do not hold the request, the fetch that would (RFC 9111 §3.3).
 */
export function answerFromStored(request: CacheRequest, stored: StoredResponse, nowMs: number, options: RangeOptions): StoredAnswer | FetchPlan {
  const headers = new Map(stored.headers);
  headers.set('age', String(Math.max(0, Math.floor(currentAgeSeconds(stored.freshness.initialAgeSeconds, stored.freshness.storedAtMs, nowMs)))));
  if (conditionalRequestMatches(request.headers, stored.headers, nowMs, stored.freshness.storedAtMs)) {
    return { kind: 'answer', response: { status: 304, headers, body: '' }, notModified: true, reason: reason('RFC 9111 §4.3.2', "the client's conditional request matches the stored response: 304") };
  }
  const answer = answerRange(request, stored, nowMs, options);
  switch (answer.kind) {
    case 'whole':
      return { kind: 'answer', response: { status: stored.status, headers, body: isHead(request) ? '' : wholeBody(stored.content) }, notModified: false };
    case 'partial':
      return {
        kind: 'answer',
        response: { status: 206, headers: partialResponseHeaders(headers, answer.contentRange, answer.bytes.length), body: answer.bytes },
        notModified: false,
        reason: reason('RFC 9110 §15.3.7', `206: ${answer.contentRange} from the stored response`),
      };
    case 'unsatisfiable':
      return {
        kind: 'answer',
        response: { status: 416, headers: unsatisfiableResponseHeaders(headers, answer.contentRange), body: '' },
        notModified: false,
        reason: reason('RFC 9110 §15.5.17', 'no requested range overlaps the stored representation'),
      };
    case 'fetch':
      return answer;
  }
}

/**
 * What a cache sends upstream for `request` under `plan`: at a shared layer, a GET loses the
 * client's own validators so the full response comes back and fills the cache, which then
 * answers the client's condition itself (RFC 9111 §4.3.2; the layered flow's CDN nodes fetch
 * the same way; a browser forwards them); the Range and If-Range are the plan's.
 */
export function upstreamRequestFor(request: CacheRequest, layer: CacheLayer, plan: FetchPlan = FETCH_WHOLE): CacheRequest {
  const headers = new Map(request.headers);
  if (isSharedLayer(layer) && request.method.toUpperCase() === 'GET') {
    headers.delete('if-none-match');
    headers.delete('if-modified-since');
  }
  if (plan.range === undefined) {
    headers.delete('range');
    headers.delete('if-range');
  } else {
    headers.set('range', plan.range);
    if (plan.ifRange !== undefined) headers.set('if-range', plan.ifRange);
  }
  return { ...request, headers };
}

/** The first fetch for a request with nothing stored that can take part (RFC 9111 §3.3, spec 4.8). */
export function initialFetchPlan(request: CacheRequest, nowMs: number, options: RangeOptions): FetchPlan {
  const plan = answerRange(request, undefined, nowMs, options);
  return plan.kind === 'fetch' ? plan : FETCH_WHOLE;
}

/** What a response received from upstream does to a cache. */
export interface ReceivedResponse {
  /** The response to store (replacing `previous` and its variant), or undefined. */
  readonly store: StoredResponse | undefined;
  /** Whether `previous` is dropped although nothing is stored (a newer answer made it obsolete). */
  readonly dropPrevious: boolean;
  readonly decision: CacheDecision;
  readonly reasons: readonly PolicyReason[];
  /** What the response makes of the representation (stored or not), to answer the client's range from. */
  readonly representation: { readonly headers: HeaderFields; readonly content: StoredContent } | undefined;
}

/**
 * A response received from upstream for `request` (not a 304 or a HEAD): decided by the engine,
 * combined with `previous` parts when `plan` asked for the missing bytes and both share a strong
 * validator (RFC 9111 §3.4), kept without the fields a cache never stores (§3.1, §5.2.2.7).
 */
export function receiveResponse(
  setting: CacheSetting,
  request: CacheRequest,
  response: CacheResponse,
  previous: StoredResponse | undefined,
  plan: FetchPlan,
  nowMs: number,
  requestTimeMs: number,
): ReceivedResponse {
  const decision = decideStored(setting, request, response, nowMs, requestTimeMs);
  const received = contentOf(response.status, response.headers, response.body);
  const combine = plan.combine && previous !== undefined && sharedStrongValidator(previous.headers, response.headers) !== undefined;
  const content = received && combineContent(previous?.content, received, combine);
  const representation = content && { headers: content === received ? response.headers : combinedHeaderFields(response.headers, content), content };
  const result = { decision, reasons: decision.reasons, representation };
  // A response that may not be stored still replaces nothing, except that a newer
  // non-storable answer makes the old one obsolete (RFC 9111 §4.4 spirit): drop it.
  if (!decision.store) return { ...result, store: undefined, dropPrevious: previous !== undefined && response.status < 500 };
  // A stored error is never served in an error's place (spec 4.7: the last *good* version), so it never blocks the new one.
  if (decision.errorCaching && previous !== undefined && previous.status < 500 && !errorMayReplaceStored(previous.freshness, nowMs)) {
    return { ...result, store: undefined, dropPrevious: false, reasons: [...decision.reasons, reason('spec 7.1', 'the error does not displace the stored version that can still be served')] };
  }
  // A multipart/byteranges 206 is passed on, not stored (RFC 9111 §3.3 allows, does not require, storing parts).
  if (response.status === 206 && !content) return { ...result, store: undefined, dropPrevious: false };
  // A shared cache keeps no field named by a qualified private="…" (RFC 9111 §5.2.2.7), read by the engine's own parser.
  const excluded = isSharedLayer(setting.layer) ? (readResponseFacts(response, setting.layer, nowMs).cacheControl.privateFields ?? []) : [];
  const store: StoredResponse = {
    requestHeaders: request.headers,
    status: content !== undefined && isComplete(content) ? 200 : response.status,
    headers: storedHeaderFields(representation?.headers ?? response.headers, excluded),
    content: content ?? { completeLength: response.body.length, pieces: response.body ? [{ first: 0, bytes: response.body }] : [] },
    decision,
    freshness: storedFreshness(decision, nowMs),
  };
  return { ...result, store, dropPrevious: false };
}

/**
 * The client's answer from a fresh upstream response: its range from what the response makes of
 * the representation (RFC 9110 §14.2), or the response as it came when that cannot answer; a
 * HEAD gets no body.
 */
export function answerFromReceived(request: CacheRequest, response: CacheResponse, received: ReceivedResponse, nowMs: number): CacheResponse {
  const representation = received.representation;
  if (isHead(request)) return { ...response, body: '' };
  if (!representation) return response;
  const answer = answerRange(request, representation, nowMs);
  if (answer.kind === 'partial') return { status: 206, headers: partialResponseHeaders(representation.headers, answer.contentRange, answer.bytes.length), body: answer.bytes };
  if (answer.kind === 'whole' && response.status === 206) return { status: 200, headers: representation.headers, body: wholeBody(representation.content) };
  return response;
}

/** The stored representation's length, for RFC 9111 §4.3.5: the complete length, or the bytes held. */
export function storedLength(stored: StoredResponse): number {
  return stored.content.completeLength ?? stored.content.pieces.reduce((sum, piece) => sum + piece.bytes.length, 0);
}

export function isHead(request: { readonly method: string }): boolean {
  return request.method.toUpperCase() === 'HEAD';
}

/**
 * The conditional request that validates the whole stored response (RFC 9111 §4.3.1): the
 * client's request without its own validators and range, with the stored response's; a HEAD
 * is forwarded as a HEAD, whose 200 may update the stored response (§4.3.5).
 */
export function revalidationRequest(request: CacheRequest, stored: StoredResponse): CacheRequest {
  const headers = new Map(request.headers);
  for (const name of ['if-none-match', 'if-modified-since', 'range', 'if-range']) headers.delete(name);
  for (const [name, value] of conditionalRequestHeaders(stored.headers)) headers.set(name, value);
  return { method: isHead(request) ? 'HEAD' : 'GET', url: request.url, headers };
}

/**
 * RFC 9110 §9.3.3: a response to POST with explicit freshness and a Content-Location naming the
 * request's own URI may be stored and answer later GET and HEAD requests for that URI. Returns
 * the GET it is stored as, or undefined. (It is stored after the POST's own invalidation,
 * RFC 9111 §4.4, so it is what remains.)
 */
export function getStoredFromPost(request: CacheRequest, response: CacheResponse, layer: CacheLayer, nowMs: number): CacheRequest | undefined {
  if (request.method.toUpperCase() !== 'POST' || response.status < 200 || response.status >= 300) return undefined;
  const location = response.headers.get('content-location');
  if (location === undefined) return undefined;
  const target = new URL(request.url, 'http://cdnsim.invalid');
  let named: URL;
  try {
    named = new URL(location, target);
  } catch {
    return undefined;
  }
  if (named.origin !== target.origin || named.pathname !== target.pathname || named.search !== target.search) return undefined;
  if (!explicitFreshness(readResponseFacts(response, layer, nowMs), layer, nowMs)) return undefined;
  return { method: 'GET', url: request.url, headers: request.headers };
}
