/**
 * The adaptive controller's rule (spec 1.2 item 6: "adjustment of TTL values … when hit
 * rates drop"), as pure functions of one window's counts so it can be tested apart from the
 * clock: first what the window says about a class (its verdict), then what the TTL action
 * does with that verdict. docs/ttl-strategies.md states the rule and its parameters.
 */

/** One content class's requests over one window, as the CDN saw them. */
export interface WindowCounts {
  /** Requests of the class that reached the CDN (the edge). */
  readonly requests: number;
  /** Of those, answered by an edge or regional cache (the CDN hit ratio's numerator). */
  readonly cdnHits: number;
  /** Of those, responses older than the origin's current version (summary.staleness's count). */
  readonly outdated: number;
}

export interface VerdictLimits {
  /** CDN hit ratio the class should reach (0..1). */
  readonly targetHitRatio: number;
  /** The staleness budget: the share of its responses that may be outdated (0..1). */
  readonly maxStaleShare: number;
  /** Fewer requests than this in a window: no verdict (a ratio of a handful is noise). */
  readonly minRequests: number;
}

/**
 * What a window says about a class. `over-budget` wins over `below-target`: the staleness
 * budget bounds the controller, so a class that is both outdated too often and missing too
 * often is never given a longer lifetime.
 */
export type ClassVerdict = 'below-target' | 'over-budget' | 'hold';

export function classVerdict(counts: WindowCounts, limits: VerdictLimits): ClassVerdict {
  if (counts.requests === 0 || counts.requests < limits.minRequests) return 'hold';
  if (counts.outdated / counts.requests > limits.maxStaleShare) return 'over-budget';
  if (counts.cdnHits / counts.requests < limits.targetHitRatio) return 'below-target';
  return 'hold';
}

export interface TtlBounds {
  /** The lifetime the origin's headers give the class at the edge: the controller never goes below it. */
  readonly headerTtlMs: number;
  /** The longest lifetime the controller gives (a class whose headers give more keeps theirs). */
  readonly maxTtlMs: number;
  /** A raise gives at least this (a class sent max-age=0 has nothing to multiply). */
  readonly startTtlMs: number;
  /** Raised ×factor, lowered ÷factor. */
  readonly factor: number;
}

const SECOND_MS = 1000;

/**
 * The CDN lifetime after a verdict, in whole seconds as max-age carries them (RFC 9111
 * §1.2.2): a raise multiplies by the factor (at least startTtl, at most maxTtl, and at least
 * one second more, so a small factor still moves); a lowering divides by it, down to the
 * headers' lifetime; `hold` keeps it. A TTL already at or above maxTtl is never raised, one
 * at or below the headers' never lowered.
 */
export function nextTtlMs(verdict: ClassVerdict, ttlMs: number, bounds: TtlBounds): number {
  if (verdict === 'below-target') {
    if (ttlMs >= bounds.maxTtlMs) return ttlMs;
    const raised = Math.max(Math.ceil((ttlMs * bounds.factor) / SECOND_MS) * SECOND_MS, ttlMs + SECOND_MS, bounds.startTtlMs);
    return Math.min(raised, bounds.maxTtlMs);
  }
  if (verdict === 'over-budget') {
    if (ttlMs <= bounds.headerTtlMs) return ttlMs;
    return Math.max(Math.floor(ttlMs / bounds.factor / SECOND_MS) * SECOND_MS, bounds.headerTtlMs);
  }
  return ttlMs;
}
