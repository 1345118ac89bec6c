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
   * When the stored entry of `key` expires (Infinity: never), or NaN when it is not
   * stored. Without touching policy state. A layer below uses it to carry the entry's age
   * (RFC 9111 §4.2.3: the Age a response arrives with counts against its freshness).
   */
  expiryOf(key: number): number;

  /**
   * Admits `key` with `size` bytes, fresh until `expiresAtMs` (Infinity: no expiry),
   * evicting as needed. Returns false when the object is not admitted (larger than the
   * whole cache). Inserting a present key replaces its entry; the old entry is gone even
   * when the new one is not admitted (it is an older version of the object).
   */
  insert(key: number, size: number, expiresAtMs: number): boolean;

  /** Removes `key` if present; returns whether it was. */
  remove(key: number): boolean;

  /**
   * Only on policies that keep a history of keys they no longer store (ghost ids: ARC's B1
   * and B2, 2Q's A1out, S3-FIFO's G): whether `key`, not stored now, is still remembered, so
   * that its next insert is placed differently. False for a stored key, and for a key the
   * policy has no state for. Without touching policy state. A wrapper that hands ids to
   * several keys in turn (SparseKeyStore) must not give a remembered id to another key: the
   * newcomer would inherit the ghost. Stores without such history leave it undefined.
   */
  remembers?(key: number): boolean;

  /**
   * Only on offline policies that need the future (Belady): the index, in the request
   * sequence, of the next request for `key` (-1 or Infinity: never again), e.g. the
   * `next_access` field of an oracleGeneral trace. A replay driver calls it before the
   * lookup/insert of every request. Online policies leave it undefined, so they pay nothing;
   * `needsFutureKnowledge` tells the two apart.
   */
  setNextAccess?(key: number, nextAccessIndex: number): void;
}

/** Whether the store must be driven with `setNextAccess` before each request. */
export function needsFutureKnowledge(store: CacheStore): store is CacheStore & { setNextAccess(key: number, nextAccessIndex: number): void } {
  return typeof store.setNextAccess === 'function';
}

export interface CacheStoreOptions {
  /** Bytes, or objects in count mode. */
  capacity: number;
  countMode?: boolean;
  /** Expected largest key id + 1; the store grows past it when needed. */
  keySpace?: number;
}
