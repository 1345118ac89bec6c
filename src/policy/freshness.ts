import { isSharedLayer, type CacheLayer, type PolicyOptions } from './deployment.js';
import { reason, type PolicyReason } from './reason.js';
import type { ResponseFacts } from './responseFacts.js';

export type FreshnessSource = 's-maxage' | 'max-age' | 'expires' | 'heuristic' | 'no-cache' | 'static-site default' | 'static-asset default' | 'error caching';

export interface FreshnessLifetime {
  readonly seconds: number;
  readonly source: FreshnessSource;
  readonly reason: PolicyReason;
}

/**
 * Explicit freshness in the order RFC 9111 §4.2.1 gives: `s-maxage` (shared caches only),
 * then `max-age`, then `Expires − Date`. Undefined when the response states none.
 */
export function explicitFreshness(facts: ResponseFacts, layer: CacheLayer, responseTimeMs: number): FreshnessLifetime | undefined {
  const { cacheControl, directivesFrom } = facts;
  if (isSharedLayer(layer) && cacheControl.sMaxAge !== undefined) {
    return {
      seconds: cacheControl.sMaxAge,
      source: 's-maxage',
      reason: reason('RFC 9111 §5.2.2.10', `${directivesFrom} s-maxage=${cacheControl.sMaxAge} sets the lifetime in a shared cache`),
    };
  }
  if (cacheControl.maxAge !== undefined) {
    const invalid = cacheControl.invalid.includes('max-age');
    return {
      seconds: cacheControl.maxAge,
      source: 'max-age',
      reason: invalid
        ? reason('RFC 9111 §4.2.1', `${directivesFrom} max-age has an invalid value, so the response is treated as stale`)
        : reason('RFC 9111 §5.2.2.1', `${directivesFrom} max-age=${cacheControl.maxAge} sets the lifetime`),
    };
  }
  if (facts.expiresMs !== undefined) {
    if (facts.expiresMs === -Infinity) {
      return { seconds: 0, source: 'expires', reason: reason('RFC 9111 §5.3', 'Expires is not a valid HTTP-date, so the response is already expired') };
    }
    const dateMs = facts.dateMs ?? responseTimeMs;
    const seconds = Math.max(0, Math.floor((facts.expiresMs - dateMs) / 1000));
    return { seconds, source: 'expires', reason: reason('RFC 9111 §4.2.1', `Expires − Date = ${seconds} s sets the lifetime`) };
  }
  return undefined;
}

/**
 * Statuses that may be cached heuristically (RFC 9110 §15.1: "heuristically cacheable"):
 * 200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501.
 */
export const HEURISTICALLY_CACHEABLE_STATUSES: ReadonlySet<number> = new Set([200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]);

/**
 * Heuristic freshness (RFC 9111 §4.2.2; DESIGN: 10 % of Date − Last-Modified, at most 24 h),
 * for a heuristically cacheable status or a response marked `public`. Undefined without
 * Last-Modified.
 */
export function heuristicFreshness(facts: ResponseFacts, responseTimeMs: number, options: PolicyOptions): FreshnessLifetime | undefined {
  if (facts.lastModifiedMs === undefined) return undefined;
  if (!HEURISTICALLY_CACHEABLE_STATUSES.has(facts.status) && !facts.cacheControl.public) return undefined;
  const sinceModifiedMs = Math.max(0, (facts.dateMs ?? responseTimeMs) - facts.lastModifiedMs);
  const seconds = Math.min(options.heuristicCapSeconds, Math.floor((sinceModifiedMs / 1000) * options.heuristicFraction));
  return {
    seconds,
    source: 'heuristic',
    reason: reason(
      'RFC 9111 §4.2.2',
      `no explicit lifetime: heuristic ${Math.round(options.heuristicFraction * 100)} % of Date − Last-Modified, capped at ${options.heuristicCapSeconds} s, gives ${seconds} s`,
    ),
  };
}

/**
 * The response's age when it was received (RFC 9111 §4.2.3): the larger of the apparent age
 * (response time − Date) and Age plus the request's round trip.
 */
export function initialAgeSeconds(facts: ResponseFacts, requestTimeMs: number, responseTimeMs: number): number {
  const apparentAge = facts.dateMs === undefined ? 0 : Math.max(0, (responseTimeMs - facts.dateMs) / 1000);
  const correctedAgeValue = facts.ageSeconds + (responseTimeMs - requestTimeMs) / 1000;
  return Math.max(apparentAge, correctedAgeValue);
}

/** current_age = corrected_initial_age + resident_time (RFC 9111 §4.2.3). */
export function currentAgeSeconds(initialAge: number, responseTimeMs: number, nowMs: number): number {
  return initialAge + (nowMs - responseTimeMs) / 1000;
}
