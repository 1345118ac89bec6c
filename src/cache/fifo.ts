import type { CacheStore, CacheStoreOptions } from './cacheStore.js';
import { EntryTable } from './entryTable.js';
import { KeyLists, type KeyList } from './keyLists.js';
import { grownLength } from './typedArrays.js';

/**
 * First-in first-out eviction: one queue in insertion order; a hit changes nothing, the
 * oldest insertion goes first. The baseline the FIFO-family papers improve on (and the
 * subject of Belady's anomaly: Belady, Nelson and Shedler, "An anomaly in space-time
 * characteristics of certain programs running in a paging machine", CACM 12(6), 1969).
 *
 * Re-inserting a present key is a new insertion: it goes to the back of the queue.
 */
export class FifoStore implements CacheStore {
  readonly policy = 'fifo';
  readonly capacity: number;
  readonly countMode: boolean;
  private readonly entries: EntryTable;
  private readonly links: KeyLists;
  private readonly queue: KeyList;

  constructor(options: CacheStoreOptions) {
    this.entries = new EntryTable(options);
    this.capacity = this.entries.capacity;
    this.countMode = this.entries.countMode;
    this.links = new KeyLists(this.entries.keySpace);
    this.queue = this.links.newList();
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
    while (this.entries.used + charge > this.capacity) this.forget(this.queue.tail);
    this.entries.add(key, size, charge, expiresAtMs);
    this.links.pushHead(this.queue, key, charge);
    return true;
  }

  remove(key: number): boolean {
    if (!this.entries.has(key)) return false;
    this.forget(key);
    return true;
  }

  private forget(key: number): void {
    this.links.unlink(key);
    this.entries.drop(key);
  }

  private grow(minimum: number): void {
    const length = grownLength(this.entries.keySpace, minimum);
    this.entries.grow(length);
    this.links.growKeys(length);
  }
}
