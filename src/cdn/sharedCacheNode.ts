import type { SparseKeyStore } from '../cache/sparseKeyStore.js';

/**
 * One shared cache node (a PoP's edge cache or a regional site, spec 4.9 layers 2–3) on the
 * simulated clock. The eviction store decides what stays; this node keeps, per stored
 * entry, what HTTP caching needs to reuse it (RFC 9111 §4): when the response was made
 * (its age), until when it is fresh, its content version (what a conditional request
 * validates) and its status (a cached origin error, spec 7.1). An expired entry stays
 * stored until it is evicted, so it can be revalidated or served stale (spec 4.7).
 *
 * Entries go into the eviction store with no expiry: freshness is the flow's question, not
 * the store's. Per-entry fields live in typed arrays indexed by the store's local id.
 */
export class SharedCacheNode {
  private responseAt = new Float64Array(64);
  private storedAt = new Float64Array(64);
  private freshUntil = new Float64Array(64);
  private versions = new Int32Array(64);
  private statuses = new Int16Array(64);

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
   * Stores a response for `key`, replacing what was there. `responseAtMs` is when the origin
   * made it (RFC 9111 §4.2.3: its age counts against this layer's lifetime too). Returns the
   * local id, or −1 when the store does not admit it (larger than the cache).
   */
  put(key: number, bytes: number, nowMs: number, responseAtMs: number, freshUntilMs: number, version: number, status: number): number {
    const local = this.store.insertLocal(key, bytes, Infinity);
    if (local < 0) return -1;
    if (local >= this.freshUntil.length) this.grow(this.store.localLimit);
    this.responseAt[local] = responseAtMs;
    this.storedAt[local] = nowMs;
    this.freshUntil[local] = freshUntilMs;
    this.versions[local] = version;
    this.statuses[local] = status;
    return local;
  }

  /** A 304 (RFC 9111 §4.3.4): the stored entry is fresh again from a new response time, body unchanged. */
  renew(local: number, responseAtMs: number, freshUntilMs: number): void {
    this.responseAt[local] = responseAtMs;
    this.freshUntil[local] = freshUntilMs;
  }

  remove(key: number): void {
    this.store.remove(key);
  }

  responseAtOf(local: number): number {
    return this.responseAt[local];
  }
  storedAtOf(local: number): number {
    return this.storedAt[local];
  }
  freshUntilOf(local: number): number {
    return this.freshUntil[local];
  }
  versionOf(local: number): number {
    return this.versions[local];
  }
  /** 200 for content; an origin error status (500) for a cached error (spec 7.1). */
  statusOf(local: number): number {
    return this.statuses[local];
  }

  private grow(minimum: number): void {
    let length = this.freshUntil.length;
    while (length < minimum) length *= 2;
    const grown = <T extends Float64Array | Int32Array | Int16Array>(array: T, make: (n: number) => T): T => {
      const next = make(length);
      next.set(array);
      return next;
    };
    this.responseAt = grown(this.responseAt, (n) => new Float64Array(n));
    this.storedAt = grown(this.storedAt, (n) => new Float64Array(n));
    this.freshUntil = grown(this.freshUntil, (n) => new Float64Array(n));
    this.versions = grown(this.versions, (n) => new Int32Array(n));
    this.statuses = grown(this.statuses, (n) => new Int16Array(n));
  }
}
