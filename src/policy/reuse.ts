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
  readonly staleIfUnreachableSeconds: number;
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
 * May a stored response answer when the origin fails, `cause` saying how? A fresh copy always
 * (unless no-cache); a stale one never under no-cache/must-revalidate/proxy-revalidate/s-maxage
 * (RFC 9111 §4.2.4), else:
 * - `'error'` (a 5xx): only within explicit permission, stale-if-error (RFC 5861 §4) or a
 *   stale-while-revalidate window (RFC 5861 §3) — a 5xx is not "origin offline" (DESIGN);
 * - `'unreachable'` (connection refused, spec 4.7 row 1): the last known good version, up to
 *   stale-if-error or cdnsim's cap.
 */
export function mayServeStaleOnError(stored: StoredFreshness, nowMs: number, cause: 'error' | 'unreachable' = 'error'): boolean {
  const age = currentAgeSeconds(stored.initialAgeSeconds, stored.storedAtMs, nowMs);
  if (stored.freshnessLifetimeSeconds > age && !stored.revalidateAlways) return true;
  if (stored.neverServeStale) return false;
  return age - stored.freshnessLifetimeSeconds <= (cause === 'error' ? stored.staleIfErrorSeconds : stored.staleIfUnreachableSeconds);
}

/**
 * spec 7.1 and DESIGN: an error response (a 5xx) never displaces a stored response that could
 * still be served in its place; that copy keeps answering and the error is held beside it.
 */
export function errorMayReplaceStored(stored: StoredFreshness | undefined, nowMs: number): boolean {
  return stored === undefined || !mayServeStaleOnError(stored, nowMs, 'error');
}
