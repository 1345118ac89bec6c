import { parseCacheControl, type CacheControl } from './cacheControl.js';
import type { HeaderFields } from './headers.js';
import { currentAgeSeconds } from './freshness.js';
import { reason, type PolicyReason } from './reason.js';

/** The numbers a stored response carries from its decision (see CacheDecision). */
export interface StoredFreshness {
  /** When the response was received and stored (ms). */
  readonly storedAtMs: number;
  readonly initialAgeSeconds: number;
  readonly freshnessLifetimeSeconds: number;
  readonly revalidateAlways: boolean;
  readonly neverServeStale: boolean;
  readonly staleWhileRevalidateSeconds: number;
  readonly staleIfErrorSeconds: number;
}

/**
 * How a stored response may answer a request (RFC 9111 §4.2, §4.2.4; RFC 5861):
 * - `fresh`: served without contacting the origin;
 * - `stale-while-revalidate`: served stale now, with one background revalidation;
 * - `revalidate`: the origin must be asked first (a conditional request).
 */
export type ReuseKind = 'fresh' | 'stale-while-revalidate' | 'revalidate';

export interface ReuseVerdict {
  readonly kind: ReuseKind;
  readonly ageSeconds: number;
  /** Seconds past expiry (0 when fresh). */
  readonly stalenessSeconds: number;
  readonly reason: PolicyReason;
}

/** A request's own cache directives: Cache-Control, or `Pragma: no-cache` without it (RFC 9111 §5.4). */
export function requestCacheControl(headers: HeaderFields): { cacheControl: CacheControl; pragmaNoCache: boolean } {
  const field = headers.get('cache-control');
  const pragma = headers.get('pragma');
  return {
    cacheControl: parseCacheControl(field),
    pragmaNoCache: field === undefined && pragma !== undefined && /(^|,)\s*no-cache\s*(,|$)/i.test(pragma),
  };
}

export function reuseVerdict(
  stored: StoredFreshness,
  nowMs: number,
  request: { cacheControl: CacheControl; pragmaNoCache: boolean } = { cacheControl: parseCacheControl(undefined), pragmaNoCache: false },
): ReuseVerdict {
  const age = currentAgeSeconds(stored.initialAgeSeconds, stored.storedAtMs, nowMs);
  const lifetime = stored.freshnessLifetimeSeconds;
  const staleness = Math.max(0, age - lifetime);
  const verdict = (kind: ReuseKind, why: PolicyReason): ReuseVerdict => ({ kind, ageSeconds: age, stalenessSeconds: staleness, reason: why });
  const rcc = request.cacheControl;

  if (stored.revalidateAlways) return verdict('revalidate', reason('RFC 9111 §5.2.2.4', 'stored with no-cache: revalidated before every reuse'));
  if (rcc.noCache || request.pragmaNoCache) return verdict('revalidate', reason('RFC 9111 §5.2.1.4, §5.4', 'the request says no-cache'));
  if (rcc.maxAge !== undefined && age > rcc.maxAge) {
    return verdict('revalidate', reason('RFC 9111 §5.2.1.1', `the request accepts at most max-age=${rcc.maxAge}; the response is ${Math.floor(age)} s old`));
  }
  if (rcc.minFresh !== undefined && lifetime - age < rcc.minFresh) {
    return verdict('revalidate', reason('RFC 9111 §5.2.1.3', `the request wants min-fresh=${rcc.minFresh}`));
  }
  // "response_is_fresh = (freshness_lifetime > current_age)" (RFC 9111 §4.2).
  if (lifetime > age) return verdict('fresh', reason('RFC 9111 §4.2', `fresh: age ${Math.floor(age)} s < lifetime ${lifetime} s`));
  if (stored.neverServeStale) return verdict('revalidate', reason('RFC 9111 §4.2.4', 'stale, and its directives forbid serving it stale'));
  if (rcc.maxStale !== undefined && staleness <= rcc.maxStale) {
    return verdict('fresh', reason('RFC 9111 §5.2.1.2', `stale by ${Math.floor(staleness)} s, which the request's max-stale accepts`));
  }
  // "up to N seconds" (RFC 5861 §3): inclusive, like stale-if-error below.
  if (staleness <= stored.staleWhileRevalidateSeconds && stored.staleWhileRevalidateSeconds > 0) {
    return verdict('stale-while-revalidate', reason('RFC 5861 §3', `stale by ${Math.floor(staleness)} s, within stale-while-revalidate=${stored.staleWhileRevalidateSeconds}`));
  }
  return verdict('revalidate', reason('RFC 9111 §4.2', `stale by ${Math.floor(staleness)} s`));
}

/**
 * May a stored response answer when the origin fails (5xx) or cannot be reached? spec 4.7
 * says the last known good version is served; RFC 5861 §4 bounds it by stale-if-error;
 * RFC 9111 §4.2.4 forbids it under no-cache/must-revalidate/proxy-revalidate/s-maxage.
 */
export function mayServeStaleOnError(stored: StoredFreshness, nowMs: number): boolean {
  const age = currentAgeSeconds(stored.initialAgeSeconds, stored.storedAtMs, nowMs);
  if (stored.freshnessLifetimeSeconds > age && !stored.revalidateAlways) return true;
  if (stored.neverServeStale) return false;
  return age - stored.freshnessLifetimeSeconds <= stored.staleIfErrorSeconds;
}

/**
 * spec 7.1 and DESIGN: an error response never displaces a stored response that could still
 * be served in its place.
 */
export function errorMayReplaceStored(stored: StoredFreshness | undefined, nowMs: number): boolean {
  return stored === undefined || !mayServeStaleOnError(stored, nowMs);
}
