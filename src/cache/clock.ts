import type { CacheStore, CacheStoreOptions } from './cacheStore.js';
import { EntryTable } from './entryTable.js';
import { KeyLists, type KeyList } from './keyLists.js';
import { growUint8, grownLength } from './typedArrays.js';

/**
 * CLOCK, in its FIFO-with-reinsertion form (the "second chance" algorithm): a FIFO queue
 * plus one reference bit per object. A hit sets the bit; eviction looks at the oldest
 * entry, and if its bit is set it clears the bit and moves the entry to the newest end
 * instead of evicting it. Equivalent to the circular-buffer CLOCK of Corbató, "A paging
 * experiment with the Multics system", MIT Project MAC MAC-M-384, 1968; the queue form is
 * the one libCacheSim calls FIFO-Reinsertion (Yang et al., "FIFO can be better than LRU:
 * the power of lazy promotion and quick demotion", HotOS 2023).
 *
 * New and re-inserted entries start with the bit clear.
 */
export class ClockStore implements CacheStore {
  readonly policy = 'clock';
  readonly capacity: number;
  readonly countMode: boolean;
  private readonly entries: EntryTable;
  private readonly links: KeyLists;
  private readonly queue: KeyList;
  private referenced: Uint8Array;

  constructor(options: CacheStoreOptions) {
    this.entries = new EntryTable(options);
    this.capacity = this.entries.capacity;
    this.countMode = this.entries.countMode;
    this.links = new KeyLists(this.entries.keySpace);
    this.queue = this.links.newList();
    this.referenced = new Uint8Array(this.entries.keySpace);
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
    this.referenced[key] = 1;
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
    this.referenced[key] = 0;
    this.links.pushHead(this.queue, key, charge);
    return true;
  }

  remove(key: number): boolean {
    if (!this.entries.has(key)) return false;
    this.forget(key);
    return true;
  }

  /** Second chance: terminates within one lap, since every pass clears a bit. */
  private evictOne(): void {
    for (;;) {
      const oldest = this.queue.tail;
      if (this.referenced[oldest] === 0) {
        this.forget(oldest);
        return;
      }
      this.referenced[oldest] = 0;
      this.links.moveToHead(this.queue, oldest);
    }
  }

  private forget(key: number): void {
    this.links.unlink(key);
    this.entries.drop(key);
  }

  private grow(minimum: number): void {
    const length = grownLength(this.entries.keySpace, minimum);
    this.entries.grow(length);
    this.links.growKeys(length);
    this.referenced = growUint8(this.referenced, length);
  }
}
