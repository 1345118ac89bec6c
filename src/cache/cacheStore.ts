/**
 * The interface every cache store implements. Keys are dense non-negative integer ids
 * (the workload interns URLs and variants once); sizes are bytes. Times are simulated ms.
 * No HTTP and no simulator knowledge here: the policy engine decides *whether* and for how
 * long to store, the store decides *what to evict*.
 */
export interface CacheStore {
  /** Registry name of the eviction policy, e.g. "lru". */
  readonly policy: string;
  /** Capacity in bytes (or in objects when `countMode`). */
  readonly capacity: number;
  readonly countMode: boolean;
  /** Bytes (or objects in count mode) held now. */
  readonly occupancy: number;
  /** Number of objects held now. */
  readonly objectCount: number;

  /**
   * A request for `key` at `nowMs`: true on a hit (the entry is present and not expired),
   * updating the policy's recency/frequency state. An expired entry counts as a miss and
   * is removed, so the caller's insert replaces it.
   */
  lookup(key: number, nowMs: number): boolean;

  /** Present and not expired, without touching policy state. */
  contains(key: number, nowMs: number): boolean;

  /**
   * Admits `key` with `size` bytes, fresh until `expiresAtMs` (Infinity: no expiry),
   * evicting as needed. Returns false when the object is not admitted (larger than the
   * whole cache). Inserting a present key replaces its entry; the old entry is gone even
   * when the new one is not admitted (it is an older version of the object).
   */
  insert(key: number, size: number, expiresAtMs: number): boolean;

  /** Removes `key` if present; returns whether it was. */
  remove(key: number): boolean;
}

export interface CacheStoreOptions {
  /** Bytes, or objects in count mode. */
  capacity: number;
  countMode?: boolean;
  /** Expected largest key id + 1; the store grows past it when needed. */
  keySpace?: number;
}
