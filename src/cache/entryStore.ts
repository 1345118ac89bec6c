import type { CacheStore, CacheStoreOptions } from './cacheStore.js';
import { EntryTable } from './entryTable.js';
import { KeyLists, NIL } from './keyLists.js';
import { grownLength } from './typedArrays.js';

/**
 * The CacheStore contract written once for the eviction policies (all but LruStore, which
 * keeps size, expiry and links in one record of its own): charges, growth of the per-key
 * arrays, expiry on lookup, replacement of a present key, refusal of an object larger than
 * the whole cache, removal. A policy subclasses it and writes only its algorithm:
 *
 * - `onHit`: what a hit does to the policy's state;
 * - `admit`: evict as the policy says until a new object fits, and place its key;
 * - `forget`: take a present key out of the policy's structures and the entry table;
 * - `growKeys`: grow the policy's own per-key arrays along with the table.
 *
 * The same split as the tests' ReferenceStore (test/cache/policyHarness.ts), so a policy
 * and its reference read side by side.
 *
 * Speed: cache-zoo runs each policy in a process of its own, where every hook call sees
 * one class and V8 inlines it; measured there, the hooks cost nothing against the former
 * per-policy copies. What the request path is sensitive to is its total size, which V8's
 * inlining budget caps: a few bytecodes more (a `detach` hook under `forget`, the bounds
 * check of `has` in `insert`) and `forget` stopped being inlined, costing FIFO about 5 %.
 */
export abstract class EntryStore implements CacheStore {
  abstract readonly policy: string;
  readonly capacity: number;
  readonly countMode: boolean;
  protected readonly entries: EntryTable;

  constructor(options: CacheStoreOptions) {
    this.entries = new EntryTable(options);
    this.capacity = this.entries.capacity;
    this.countMode = this.entries.countMode;
  }

  get occupancy(): number {
    return this.entries.used;
  }

  get objectCount(): number {
    return this.entries.count;
  }

  lookup(key: number, nowMs: number): boolean {
    if (!this.entries.has(key)) return false;
    if (this.entries.expiries[key] <= nowMs) {
      this.forget(key);
      return false;
    }
    this.onHit(key);
    return true;
  }

  contains(key: number, nowMs: number): boolean {
    return this.entries.isFresh(key, nowMs);
  }

  expiryOf(key: number): number {
    return this.entries.has(key) ? this.entries.expiries[key] : NaN;
  }

  insert(key: number, size: number, expiresAtMs: number): boolean {
    const charge = this.entries.chargeFor(size);
    if (key >= this.entries.keySpace) this.grow(key + 1);
    // The old entry goes even when the new one is refused: it is an older version. The key
    // is inside the table now, so its size slot is read directly: has() would repeat the
    // bounds check, and its bytecode (see the class comment) is what FIFO cannot spare.
    if (this.entries.sizes[key] >= 0) this.forget(key);
    if (charge > this.capacity) return false;
    if (!this.admit(key, charge)) return false;
    this.entries.add(key, size, charge, expiresAtMs);
    return true;
  }

  remove(key: number): boolean {
    if (!this.entries.has(key)) return false;
    this.forget(key);
    return true;
  }

  /** A hit on `key`, present and fresh: update the policy's recency/frequency state. */
  protected abstract onHit(key: number): void;

  /**
   * The policy's part of an insert: `key` is absent and `charge` (bytes, or 1 in count
   * mode) is at most the capacity. Evict (with `forget`) until `entries.used + charge` fits
   * the capacity, then place `key` in the policy's structures with weight `charge`; the
   * entry itself is stored after this returns true. False declines the object (Belady's
   * bypass) and nothing is stored.
   */
  protected abstract admit(key: number, charge: number): boolean;

  /**
   * `key`, present, leaves the cache, whether by eviction, removal, expiry or replacement:
   * out of the policy's structures, then `entries.drop(key)`. What only an eviction does
   * (a ghost id, raising GDSF's L) belongs in the policy's eviction code, not here.
   */
  protected abstract forget(key: number): void;

  /** Grows the policy's per-key arrays to `length` keys (the entry table has grown already). */
  protected abstract growKeys(length: number): void;

  /** Makes room for key ids below `minimum` (doubling, so amortised O(1) per new key). */
  protected grow(minimum: number): void {
    const length = grownLength(this.entries.keySpace, minimum);
    this.entries.grow(length);
    this.growKeys(length);
  }
}

/**
 * An EntryStore whose policy keeps its keys on KeyLists (queues, segments, buckets, ghost
 * lists): a key leaves the cache by leaving its list. GDSF and Belady keep a KeyHeap
 * instead and extend EntryStore directly.
 */
export abstract class ListStore extends EntryStore {
  protected readonly links: KeyLists = new KeyLists(this.entries.keySpace);

  /**
   * A key on one of the policy's lists while its entry is gone is a ghost id (ARC, 2Q,
   * S3-FIFO); the other list policies unlink a key when it leaves, so they answer false.
   * Written once here so that a new policy with a ghost list cannot forget it.
   */
  remembers(key: number): boolean {
    return this.links.listOf(key) !== NIL && !this.entries.has(key);
  }

  protected forget(key: number): void {
    this.links.unlink(key);
    this.entries.drop(key);
  }

  protected growKeys(length: number): void {
    this.links.growKeys(length);
  }
}
