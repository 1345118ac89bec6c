import type { KeyId, SimMs } from '../sim/ids.js';

/**
 * What the layered flow and the cache warmer ask of one shared cache node (a PoP's edge
 * cache or a regional site, spec 4.9 layers 2–3). Two implementations: SharedCacheNode
 * (any eviction policy, behind a SparseKeyStore) and LruCacheNode (LRU, the default, in
 * one table whose slot holds the whole entry). They decide alike, to the byte.
 *
 * An entry is named by a `local` handle, answered by `lookup`, `put` and
 * `store.storedLocalOf`. It stays valid until the node's next `put` or `remove`: read the
 * entry's fields (and `renew` it) before storing or removing anything on that node.
 */
export interface CacheNode {
  /** The node's number in the flow's in-flight index (PoPs, then regional sites). */
  readonly id: number;
  readonly store: CacheNodeStore;
  /** The handle of `key`'s entry if stored (recency updated, as a request does), else −1. */
  lookup(key: KeyId, nowMs: SimMs): number;
  /**
   * Stores a response for `key`, replacing what was there; `versionAtMs` is when the origin
   * read the version it sent (the request reached it: what a purge compares with its deploy,
   * spec 1.2 item 6), `responseAtMs` the moment its age counts from (RFC 9111 §4.2.3
   * corrected_initial_age: the node's request time less the age the answer came with). The
   * entry's handle, or −1 when larger than the cache.
   */
  put(key: KeyId, bytes: number, versionAtMs: number, responseAtMs: number, version: number, status: number): number;
  /**
   * Sets the entry's two times, as `put` takes them, from `times` (TIMES_VERSION_AT,
   * TIMES_RESPONSE_AT). The flow stores with `put` and then this (issue 27: each double passed
   * to `put`, a call too large to inline, was a newly allocated heap number).
   */
  setTimes(local: number, times: Float64Array): void;
  /** A 304 (RFC 9111 §4.3.4): the entry is fresh again from a new response time, body unchanged; a held error ends. */
  renew(local: number, responseAtMs: number): void;
  /**
   * spec 7.1 beside a good copy: the origin answered a 5xx, the copy stays (it may answer in
   * the error's place) and the error is held until `untilMs`, so the node does not ask again
   * before then. `put` and `renew` end it.
   */
  holdError(local: number, untilMs: number): void;
  /** Until when an origin error is held on this entry (−∞: none). */
  errorUntilOf(local: number): number;
  remove(key: number): void;
  /** Optional: room for `entries` more entries at once, before a bulk fill (src/cdn/stationaryFill.ts); a hint, never needed. */
  reserve?(entries: number): void;
  /**
   * When the stored response's age counts from. Nodes keep no end of freshness: reuse
   * (src/cdn/reuseRule.ts) computes it from this and the lifetime in force now, which the
   * adaptive controller may have changed since (spec 1.2 item 6).
   */
  responseAtOf(local: number): number;
  versionAtOf(local: number): number;
  versionOf(local: number): number;
  /** 200 for content; an origin error status (500) for a cached error (spec 7.1). */
  statusOf(local: number): number;
}

/** Slots of the array CacheNode.setTimes reads. */
export const TIMES_VERSION_AT = 0;
export const TIMES_RESPONSE_AT = 1;

/** What a node's store tells the flow and the run's reports. */
export interface CacheNodeStore {
  readonly policy: string;
  /** Bytes. */
  readonly capacity: number;
  /** Bytes held now. */
  readonly occupancy: number;
  readonly objectCount: number;
  /** The handle of `key`'s entry while stored, −1 otherwise; no recency touched. */
  storedLocalOf(key: number): number;
}

/** An entry's content version and status in one number, as both kinds of node keep them. */
const STATUS_RANGE = 1000;

export function versionStatusOf(version: number, status: number): number {
  return version * STATUS_RANGE + status;
}

export function versionIn(versionStatus: number): number {
  return Math.floor(versionStatus / STATUS_RANGE);
}

export function statusIn(versionStatus: number): number {
  // Not `%`: a remainder of doubles is a call to fmod; this is exact wherever versionIn is.
  return versionStatus - Math.floor(versionStatus / STATUS_RANGE) * STATUS_RANGE;
}
