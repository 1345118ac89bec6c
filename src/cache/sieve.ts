import type { CacheStore, CacheStoreOptions } from './cacheStore.js';
import { EntryTable } from './entryTable.js';
import { KeyLists, NIL, type KeyList } from './keyLists.js';
import { growUint8, grownLength } from './typedArrays.js';

/**
 * SIEVE (Zhang, Yang, Yue, Vigfusson and Rashmi, "SIEVE is Simpler than LRU: an Efficient
 * Turn-Key Eviction Algorithm for Web Caches", NSDI 2024). One queue with new objects at
 * the head and a visited bit per object; a hit only sets the bit. A hand walks from the
 * tail toward the head: a visited object has its bit cleared and is passed over *in place*
 * (unlike CLOCK, nothing moves), the first unvisited one is evicted, and the hand stays
 * just head-side of it. Past the head the hand wraps to the tail.
 *
 * Removing the object under the hand (remove(), expiry, re-insertion) moves the hand one
 * step toward the head, as libCacheSim's Sieve.c does. Re-insertion is a new insertion: at
 * the head, unvisited.
 */
export class SieveStore implements CacheStore {
  readonly policy = 'sieve';
  readonly capacity: number;
  readonly countMode: boolean;
  private readonly entries: EntryTable;
  private readonly links: KeyLists;
  private readonly queue: KeyList;
  private visited: Uint8Array;
  private hand = NIL;

  constructor(options: CacheStoreOptions) {
    this.entries = new EntryTable(options);
    this.capacity = this.entries.capacity;
    this.countMode = this.entries.countMode;
    this.links = new KeyLists(this.entries.keySpace);
    this.queue = this.links.newList();
    this.visited = new Uint8Array(this.entries.keySpace);
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
    this.visited[key] = 1;
    return true;
  }

  contains(key: number, nowMs: number): boolean {
    return this.entries.isFresh(key, nowMs);
  }

  insert(key: number, size: number, expiresAtMs: number): boolean {
    const charge = this.entries.chargeFor(size);
    if (key >= this.entries.keySpace) this.grow(key + 1);
    if (this.entries.has(key)) this.forget(key);
    if (charge > this.capacity) return false;
    while (this.entries.used + charge > this.capacity) this.evictOne();
    this.entries.add(key, size, charge, expiresAtMs);
    this.visited[key] = 0;
    this.links.pushHead(this.queue, key, charge);
    return true;
  }

  remove(key: number): boolean {
    if (!this.entries.has(key)) return false;
    this.forget(key);
    return true;
  }

  /** The paper's Evict procedure; ends within one lap since each pass clears a bit. */
  private evictOne(): void {
    let candidate = this.hand !== NIL ? this.hand : this.queue.tail;
    while (this.visited[candidate] === 1) {
      this.visited[candidate] = 0;
      const headSide = this.links.towardHead(candidate);
      candidate = headSide !== NIL ? headSide : this.queue.tail;
    }
    this.hand = this.links.towardHead(candidate);
    this.forget(candidate);
  }

  private forget(key: number): void {
    if (key === this.hand) this.hand = this.links.towardHead(key);
    this.links.unlink(key);
    this.entries.drop(key);
  }

  private grow(minimum: number): void {
    const length = grownLength(this.entries.keySpace, minimum);
    this.entries.grow(length);
    this.links.growKeys(length);
    this.visited = growUint8(this.visited, length);
  }
}
