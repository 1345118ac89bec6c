import type { CacheStore, CacheStoreOptions } from './cacheStore.js';
import { EntryTable } from './entryTable.js';
import { KeyHeap } from './keyHeap.js';
import { growFloat64, grownLength } from './typedArrays.js';

/**
 * Greedy-Dual-Size-Frequency (Cherkasova, "Improving WWW proxies performance with
 * Greedy-Dual-Size-Frequency caching policy", HP Labs HPL-98-69R1, 1998). Each object has
 * priority H = L + frequency × cost / size with cost 1 (the hit-ratio variant); the victim
 * is the lowest H, and the inflation value L rises to the victim's H, so objects not
 * requested for a while age out without touching every priority.
 *
 * - size is the object's charge: bytes in byte mode, 1 in count mode (where GDSF becomes
 *   LFU with dynamic aging). A zero-byte object has H = ∞: it takes no space and is never
 *   the victim while anything with a size is cached.
 * - frequency is 1 on insertion and + 1 per hit; a hit recomputes H with the current L.
 *   Frequency is forgotten on eviction; re-insertion of a present key is a new insertion.
 * - Ties on H are broken by least recently set priority (the object whose H was computed
 *   longest ago goes first), which makes the order deterministic.
 * - remove() and expiry take the object out without changing L (only evictions inflate).
 *
 * A binary min-heap on typed arrays with a position index (KeyHeap): O(log n) per
 * operation.
 */
export class GdsfStore implements CacheStore {
  readonly policy = 'gdsf';
  readonly capacity: number;
  readonly countMode: boolean;
  private readonly entries: EntryTable;
  private readonly heap: KeyHeap;
  private frequency: Float64Array;
  /** The inflation value L. */
  private inflation = 0;

  constructor(options: CacheStoreOptions) {
    this.entries = new EntryTable(options);
    this.capacity = this.entries.capacity;
    this.countMode = this.entries.countMode;
    this.heap = new KeyHeap(this.entries.keySpace);
    this.frequency = new Float64Array(this.entries.keySpace);
  }

  get occupancy(): number {
    return this.entries.used;
  }

  get objectCount(): number {
    return this.entries.count;
  }

  /** The inflation value L, for tests and reports. */
  get agingValue(): number {
    return this.inflation;
  }

  lookup(key: number, nowMs: number): boolean {
    if (!this.entries.has(key)) return false;
    if (this.entries.expiries[key] <= nowMs) {
      this.forget(key);
      return false;
    }
    const frequency = ++this.frequency[key];
    this.heap.update(key, this.inflation + frequency / this.chargeOf(key));
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
    while (this.entries.used + charge > this.capacity) {
      const victim = this.heap.top();
      this.inflation = this.heap.priorityOf(victim);
      this.forget(victim);
    }
    this.entries.add(key, size, charge, expiresAtMs);
    this.frequency[key] = 1;
    this.heap.push(key, this.inflation + 1 / charge);
    return true;
  }

  remove(key: number): boolean {
    if (!this.entries.has(key)) return false;
    this.forget(key);
    return true;
  }

  private chargeOf(key: number): number {
    return this.countMode ? 1 : this.entries.sizes[key];
  }

  private forget(key: number): void {
    this.heap.remove(key);
    this.entries.drop(key);
  }

  private grow(minimum: number): void {
    const length = grownLength(this.entries.keySpace, minimum);
    this.entries.grow(length);
    this.heap.growKeys(length);
    this.frequency = growFloat64(this.frequency, length, 0);
  }
}
