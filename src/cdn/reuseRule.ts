import { FLAG_NEVER_STALE, FLAG_REVALIDATE_ALWAYS, FLAG_STORE, type CompiledDecisionTable } from '../policy/compile.js';
import { ORIGIN_REFUSED, STATUS_OK } from './origin.js';

/**
 * The reuse rule on compiled decisions: may a stored entry answer now, at one layer? The
 * policy engine states it on header fields (src/policy/reuse.ts: `reuseVerdict`,
 * `mayServeStaleOnError`; HttpCacheNode's error hold); the layered flow and the cache-only
 * warm-up ask it here, of a node's entry fields and the compiled decision table, so they
 * cannot drift apart (test/cdn/reuseRule.test.ts holds this module to the engine, answer by
 * answer). Plain functions of numbers: they inline on the hot path and allocate nothing.
 *
 * One definition of "fresh until" (RFC 9111 §4.2, §4.2.3): an entry's `responseAtMs` is the
 * moment its age was zero (the node's request time less the age the answer came with), so
 * its current age at `nowMs` is `nowMs − responseAtMs` and it is fresh while that is below
 * the freshness lifetime: `nowMs < responseAtMs + lifetimeMs`. The lifetime is the one the
 * decision table holds now for the entry's class and layer (the error class's for a cached
 * error, spec 7.1), not the one the entry was stored with: a lifetime the adaptive
 * controller changes during a run (spec 1.2 item 6) applies to what the caches already hold.
 */

/** The entry is fresh: it answers, nothing goes upstream (RFC 9111 §4.2). */
export const REUSE_FRESH = 0;
/** Stale inside stale-while-revalidate: it answers, and one background revalidation starts (RFC 5861 §3, spec 4.7 row 2). */
export const REUSE_STALE_WHILE_REVALIDATE = 1;
/** Stale inside stale-while-revalidate while an origin error is held beside it: it answers, and no revalidation starts until the hold ends (spec 7.1). */
export const REUSE_STALE_WHILE_ERROR_HELD = 2;
/** Stale past stale-while-revalidate, inside its 5xx window, while an origin error is held beside it: it answers in the error's place (RFC 5861 §4, spec 7.1). */
export const REUSE_STALE_ON_HELD_ERROR = 3;
/** A stored 200 that may not answer without the origin: expired, or no-cache (RFC 9111 §4.2, §5.2.2.4); a conditional request when it has a validator. */
export const REUSE_REVALIDATE = 4;
/** A cached origin error inside its lifetime (5 s less its age, spec 7.1): the error answers. */
export const REUSE_CACHED_ERROR = 5;
/** A cached origin error whose lifetime is over: the origin is retried (spec 7.1). */
export const REUSE_ERROR_EXPIRED = 6;

/** Whether a verdict answers the request from the entry, with no wait for a fetch. */
export function answersFromStore(verdict: number): boolean {
  return verdict !== REUSE_REVALIDATE && verdict !== REUSE_ERROR_EXPIRED;
}

/** The moment an entry whose age was zero at `responseAtMs` stops being fresh, for a lifetime of `lifetimeMs` (RFC 9111 §4.2, §4.2.3). */
export function freshUntilMs(responseAtMs: number, lifetimeMs: number): number {
  return responseAtMs + lifetimeMs;
}

/**
 * The lifetime at `decisionLayer` of an origin error with `status` (its error class's, spec
 * 7.1: 5 s by default), or −1 when the layer does not store that error (a refused
 * connection, a status without error caching).
 */
export function errorLifetimeMs(table: CompiledDecisionTable, errorClassOf: Int32Array, status: number, decisionLayer: number): number {
  if (status === ORIGIN_REFUSED || status < 500 || status >= 600) return -1;
  const errorClass = errorClassOf[status - 500];
  if (errorClass < 0 || (table.flagsOf(errorClass, decisionLayer) & FLAG_STORE) === 0) return -1;
  return table.ttlMsOf(errorClass, decisionLayer);
}

/**
 * Whether a node's entry answers as a fresh hit at `nowMs` (RFC 9111 §4.2): a stored 200,
 * not no-cache (§5.2.2.4), younger than the lifetime in force. The flow's fast path for a
 * whole object at the PoP asks only this; `reuseVerdictOf` begins with it.
 */
export function storedIsFresh(table: CompiledDecisionTable, c: number, decisionLayer: number, status: number, responseAtMs: number, nowMs: number): boolean {
  return status === STATUS_OK && (table.flagsOf(c, decisionLayer) & FLAG_REVALIDATE_ALWAYS) === 0 && nowMs < freshUntilMs(responseAtMs, table.ttlMsOf(c, decisionLayer));
}

/**
 * What a stored entry of class `c` may do for a request at `nowMs` at `decisionLayer`: a
 * REUSE_* verdict. `status`, `responseAtMs` and `errorUntilMs` are the entry's (the node's
 * `statusOf`, `responseAtOf`, `errorUntilOf`). The order is the engine's (HttpCacheNode):
 * fresh; then stale-while-revalidate (RFC 5861 §3: "up to N seconds", inclusive); then, while
 * an error is held, the 5xx window (inclusive, as `mayServeStaleOnError`); else revalidate.
 */
export function reuseVerdictOf(
  table: CompiledDecisionTable,
  errorClassOf: Int32Array,
  c: number,
  decisionLayer: number,
  status: number,
  responseAtMs: number,
  errorUntilMs: number,
  nowMs: number,
): number {
  if (status !== STATUS_OK) {
    // spec 7.1: a cached error answers until its lifetime (counted from the error's own age) is over.
    return nowMs < freshUntilMs(responseAtMs, errorLifetimeMs(table, errorClassOf, status, decisionLayer)) ? REUSE_CACHED_ERROR : REUSE_ERROR_EXPIRED;
  }
  if (storedIsFresh(table, c, decisionLayer, status, responseAtMs, nowMs)) return REUSE_FRESH;
  const flags = table.flagsOf(c, decisionLayer);
  const freshUntil = freshUntilMs(responseAtMs, table.ttlMsOf(c, decisionLayer));
  // RFC 9111 §4.2.4: must-revalidate, proxy-revalidate, s-maxage (shared) and no-cache never serve stale.
  if ((flags & FLAG_NEVER_STALE) !== 0) return REUSE_REVALIDATE;
  const held = nowMs < errorUntilMs;
  const swrMs = table.staleWhileRevalidateMsOf(c, decisionLayer);
  if (swrMs > 0 && nowMs <= freshUntil + swrMs) return held ? REUSE_STALE_WHILE_ERROR_HELD : REUSE_STALE_WHILE_REVALIDATE;
  if (held && nowMs <= freshUntil + table.staleIfErrorMsOf(c, decisionLayer)) return REUSE_STALE_ON_HELD_ERROR;
  return REUSE_REVALIDATE;
}

/**
 * Whether a node's entry may answer in place of the origin's failure `answerStatus` (a 5xx,
 * or ORIGIN_REFUSED) at `nowMs`: the engine's `mayServeStaleOnError`. A stored 200 that is
 * fresh (and not no-cache) always; a stale one unless never-stale, up to (inclusive) its 5xx
 * window, explicit permission only (stale-if-error, or stale-while-revalidate at a shared
 * layer; RFC 9111 §4.2.4, RFC 5861 §3–4), or for a refused connection its unreachable-origin
 * window (spec 4.7 row 1). A cached error never answers in an error's place (spec 4.7: the
 * last *good* version).
 */
export function storedAnswersFailure(table: CompiledDecisionTable, c: number, decisionLayer: number, status: number, responseAtMs: number, answerStatus: number, nowMs: number): boolean {
  if (status !== STATUS_OK) return false;
  const flags = table.flagsOf(c, decisionLayer);
  const freshUntil = freshUntilMs(responseAtMs, table.ttlMsOf(c, decisionLayer));
  if (nowMs < freshUntil && (flags & FLAG_REVALIDATE_ALWAYS) === 0) return true;
  if ((flags & FLAG_NEVER_STALE) !== 0) return false;
  const windowMs = answerStatus === ORIGIN_REFUSED ? table.staleIfUnreachableMsOf(c, decisionLayer) : table.staleIfErrorMsOf(c, decisionLayer);
  return nowMs <= freshUntil + windowMs;
}
