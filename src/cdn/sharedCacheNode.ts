import type { SparseKeyStore } from '../cache/sparseKeyStore.js';
import { statusIn, TIMES_RESPONSE_AT, TIMES_VERSION_AT, versionIn, versionStatusOf, type CacheNode } from './cacheNode.js';

/**
 * One shared cache node (a PoP's edge cache or a regional site, spec 4.9 layers 2–3) on the
 * simulated clock, under any eviction policy (runs build LRU nodes as LruCacheNode, which
 * decides alike in one table; see createCacheNode). The eviction store decides what stays;
 * this node keeps, per stored entry, what HTTP caching needs to reuse it (RFC 9111 §4):
 * when the response was made (its age, from which its freshness follows), its content version (what
 * a conditional request validates) and its status (a cached origin error, spec 7.1). An
 * expired entry stays stored until it is evicted, so it can be revalidated or served stale
 * (spec 4.7).
 *
 * Entries go into the eviction store with no expiry: freshness is the flow's question, not
 * the store's. Per-entry fields live in typed arrays indexed by the store's local id.
 */
/** Per entry, one record of four numbers (32 bytes); no end of freshness (reuse computes it, CacheNode.responseAtOf). */
const RECORD = 4;
const RESPONSE_AT = 0;
const VERSION_AT = 1;
/** The version and status in one number (versionStatusOf). */
const VERSION_STATUS = 2;
/** Until when an origin error is held beside the stored copy (spec 7.1; −∞: none). */
const ERROR_UNTIL = 3;

export class SharedCacheNode implements CacheNode {
  private records = new Float64Array(64 * RECORD);

  /**
   * @param id the node's number in the flow's in-flight index (PoPs, then regional sites)
   */
  constructor(
    readonly store: SparseKeyStore,
    readonly id: number,
  ) {}

  /** The local id of `key` if stored (recency updated, as a request does), else −1. */
  lookup(key: number, nowMs: number): number {
    return this.store.lookupLocal(key, nowMs);
  }

  /**
   * Stores a response for `key`, replacing what was there. `versionAtMs` is when the origin
   * read the version it sent (a purge drops what it read before the deploy, spec 1.2 item 6);
   * `responseAtMs` is the moment its age counts from (RFC 9111 §4.2.3: the node's request
   * time less the age the answer came with; that age counts against this layer's lifetime
   * too). Returns the
   * local id, or −1 when the store does not admit it (larger than the cache).
   */
  put(key: number, bytes: number, versionAtMs: number, responseAtMs: number, version: number, status: number): number {
    const local = this.store.insertLocal(key, bytes, Infinity);
    if (local < 0) return -1;
    if ((local + 1) * RECORD > this.records.length) this.grow(this.store.localLimit);
    const at = local * RECORD;
    const records = this.records;
    records[at + RESPONSE_AT] = responseAtMs;
    records[at + VERSION_AT] = versionAtMs;
    records[at + VERSION_STATUS] = versionStatusOf(version, status);
    records[at + ERROR_UNTIL] = -Infinity;
    return local;
  }

  setTimes(local: number, times: Float64Array): void {
    this.records[local * RECORD + VERSION_AT] = times[TIMES_VERSION_AT];
    this.records[local * RECORD + RESPONSE_AT] = times[TIMES_RESPONSE_AT];
  }

  /** A 304 (RFC 9111 §4.3.4): the stored entry is fresh again from a new response time, body unchanged. */
  renew(local: number, responseAtMs: number): void {
    this.records[local * RECORD + RESPONSE_AT] = responseAtMs;
    this.records[local * RECORD + ERROR_UNTIL] = -Infinity;
  }

  holdError(local: number, untilMs: number): void {
    this.records[local * RECORD + ERROR_UNTIL] = untilMs;
  }

  remove(key: number): void {
    this.store.remove(key);
  }

  responseAtOf(local: number): number {
    return this.records[local * RECORD + RESPONSE_AT];
  }
  versionAtOf(local: number): number {
    return this.records[local * RECORD + VERSION_AT];
  }
  errorUntilOf(local: number): number {
    return this.records[local * RECORD + ERROR_UNTIL];
  }
  versionOf(local: number): number {
    return versionIn(this.records[local * RECORD + VERSION_STATUS]);
  }
  /** 200 for content; an origin error status (500) for a cached error (spec 7.1). */
  statusOf(local: number): number {
    return statusIn(this.records[local * RECORD + VERSION_STATUS]);
  }

  private grow(minimumLocals: number): void {
    let length = this.records.length;
    while (length < minimumLocals * RECORD) length *= 2;
    const next = new Float64Array(length);
    next.set(this.records);
    this.records = next;
  }
}
